package rawjson

import (
	"encoding/json"
	"testing"
)

func TestMemberAndElements(t *testing.T) {
	obj := []byte(` {"a":1,"b":{"x":[1,2,{"y":"}"}]},"c\u0041":"s\"q","a":2.5e3 , "n":null} `)
	if got := string(Member(obj, "b")); got != `{"x":[1,2,{"y":"}"}]}` {
		t.Errorf("b = %s", got)
	}
	if n, ok := Number(Member(obj, "a")); !ok || n != 2500 {
		t.Errorf("a (last duplicate) = %v %v", n, ok)
	}
	if s, ok := String(Member(obj, "cA")); !ok || s != `s"q` {
		t.Errorf("escaped key: %q %v", s, ok)
	}
	if !IsNull(Member(obj, "n")) || Member(obj, "zz") != nil {
		t.Error("null/absent")
	}
	var elems []string
	ok := EachElement(Member(Member(obj, "b"), "x"), func(e []byte) bool { elems = append(elems, string(e)); return true })
	if !ok || len(elems) != 3 || elems[2] != `{"y":"}"}` {
		t.Errorf("elements %q %v", elems, ok)
	}
	for _, bad := range []string{`{"a":}`, `{"a":1,}`, `[1,`, `{"a" 1}`, `tru`, `"abc`} {
		if SkipValue([]byte(bad), 0) >= 0 && bad != `tru` {
			t.Errorf("SkipValue(%q) accepted", bad)
		}
	}
	if _, ok := Number([]byte("-0.5")); !ok {
		t.Error("negative number")
	}
	if f, ok := Number([]byte("1e400")); !ok || f < 1e308 {
		t.Error("huge number must be +Inf")
	}
}

func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, `[]`, `"x\"y"`, `-1.5e3`, `{"a":1,"a":2}`, `[[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		end := SkipValue(data, 0)
		if end > len(data) {
			t.Fatalf("end %d beyond input %d", end, len(data))
		}
		if end >= 0 && json.Valid(data) {
			if SkipWS(data, end) != len(data) {
				t.Fatalf("valid JSON %q not consumed fully (end %d)", data, end)
			}
		}
		if json.Valid(data) && end < 0 {
			t.Fatalf("valid JSON %q rejected", data)
		}
		EachMember(data, func(k, v []byte) bool { _ = KeyEquals(k, "a"); _, _ = Number(v); return true })
		EachElement(data, func(e []byte) bool { return true })
	})
}
