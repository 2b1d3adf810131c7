package session

import (
	"reflect"
	"testing"
)

// FuzzMembersOf: on every object the validating scanner accepts,
// membersOf finds the same members and the same end.
func FuzzMembersOf(f *testing.F) {
	for _, s := range rawSummarySeeds {
		f.Add(s)
	}
	f.Add(`{"a":"x\\\"y\\\\","b":[1,{"c":"]}"}],"d":-1.5e3 , "e" : true,"f":null,"g":{}}`)
	f.Add(`{ }`)
	f.Add(`{"\"k\\":"v"}`)
	f.Fuzz(func(t *testing.T, s string) {
		d := []byte(s)
		i := skipWS(d, 0)
		if i >= len(d) || d[i] != '{' {
			return
		}
		want, wantEnd, ok := scanMembers(d, i, nil)
		if !ok {
			return
		}
		got, gotEnd := membersOf(d, i, nil)
		if gotEnd != wantEnd || !reflect.DeepEqual(got, want) {
			t.Fatalf("membersOf(%q) = %+v end %d, scanMembers %+v end %d", s, got, gotEnd, want, wantEnd)
		}
		for _, m := range want {
			if len(m.value) > 0 && m.value[0] == '"' && endOfString(m.value, 0) != len(m.value) {
				t.Fatalf("endOfString(%q) = %d", m.value, endOfString(m.value, 0))
			}
		}
	})
}
