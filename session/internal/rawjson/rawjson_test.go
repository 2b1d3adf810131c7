package rawjson

import (
	"encoding/json"
	"fmt"
	"strings"
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

// walkAll walks any value with WalkObject and WalkArray all the way down,
// reading no member itself at the leaves.
func walkAll(b []byte, i, depth int) int {
	switch {
	case i < len(b) && b[i] == '{':
		return WalkObject(b, i, depth, func(_, b []byte, v, depth int) int { return walkAll(b, v, depth) })
	case i < len(b) && b[i] == '[':
		return WalkArray(b, i, depth, func(b []byte, v, depth int) int { return walkAll(b, v, depth) })
	}
	return Skip
}

// FuzzWalk checks that walking a value, reading every nested value or
// skipping it, ends where skipping the whole value does, and that the
// members walked are EachMember's (on a valid value: on a broken one the
// walk has shown the member whose value broke).
func FuzzWalk(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, `[]`, `{}`, `[{"a":[[]]},2]`, `{"a":1,"a":2}`, `[[[[`, `{"a":}`, `{"k\"":[1 ,2] , "x" : {}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		i := SkipWS(data, 0)
		want := SkipValue(data, 0)
		got := walkAll(data, i, 0)
		if got == Skip {
			got = SkipAt(data, i, 0)
		}
		if got != want {
			t.Fatalf("%q: walk ends at %d, skip at %d", data, got, want)
		}
		var walked, each []string
		WalkObject(data, i, 0, func(k, _ []byte, _, _ int) int { walked = append(walked, string(k)); return Skip })
		EachMember(data, func(k, _ []byte) bool { each = append(each, string(k)); return true })
		if want >= 0 && fmt.Sprint(walked) != fmt.Sprint(each) {
			t.Fatalf("%q: walked %q, EachMember %q", data, walked, each)
		}
	})
}

// TestWalkDepthLimit checks that a walk fails where skipping fails.
func TestWalkDepthLimit(t *testing.T) {
	for _, n := range []int{maxDepth - 1, maxDepth, maxDepth + 1, maxDepth + 2} {
		deep := []byte(`{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
		if got, want := walkAll(deep, 0, 0), SkipValue(deep, 0); got != want {
			t.Errorf("nesting %d: walk %d, skip %d", n, got, want)
		}
	}
}
