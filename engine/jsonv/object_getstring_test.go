package jsonv

import "testing"

// TestGetString: a string member's value, else "" (nil object, missing
// member, a member of another type).
func TestGetString(t *testing.T) {
	v, err := Parse([]byte(`{"a":"x","n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	var none *Object
	for _, c := range []struct {
		o         *Object
		key, want string
	}{{o, "a", "x"}, {o, "n", ""}, {o, "missing", ""}, {none, "a", ""}} {
		if got := c.o.GetString(c.key); got != c.want {
			t.Errorf("GetString(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}
