package capability

import "testing"

// TestToolPatchString: added tools, then removed ones, each in list order;
// no change is "".
func TestToolPatchString(t *testing.T) {
	cases := []struct {
		p    ToolPatch
		want string
	}{
		{ToolPatch{}, ""},
		{ToolPatch{Add: []string{}, Remove: []string{}}, ""},
		{ToolPatch{Add: []string{"bash", "edit"}}, "+bash +edit"},
		{ToolPatch{Remove: []string{"write"}}, "-write"},
		{ToolPatch{Add: []string{"read"}, Remove: []string{"write", "bash"}}, "+read -write -bash"},
	}
	for _, c := range cases {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.p, got, c.want)
		}
	}
}
