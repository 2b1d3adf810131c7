package session

import (
	"reflect"
	"testing"

	"github.com/forgebench/forgebench/session/internal/scan"
)

// FuzzMembersOf: on every object the validating scanner accepts,
// scan.MembersOf finds the same members and the same end.
func FuzzMembersOf(f *testing.F) {
	for _, s := range rawSummarySeeds {
		f.Add(s)
	}
	f.Add(`{"a":"x\\\"y\\\\","b":[1,{"c":"]}"}],"d":-1.5e3 , "e" : true,"f":null,"g":{}}`)
	f.Add(`{ }`)
	f.Add(`{"\"k\\":"v"}`)
	f.Fuzz(func(t *testing.T, s string) {
		d := []byte(s)
		i := scan.SkipWS(d, 0)
		if i >= len(d) || d[i] != '{' {
			return
		}
		want, wantEnd, ok := scan.ScanMembers(d, i, nil)
		if !ok {
			return
		}
		got, gotEnd := scan.MembersOf(d, i, nil)
		if gotEnd != wantEnd || !reflect.DeepEqual(got, want) {
			t.Fatalf("MembersOf(%q) = %+v end %d, ScanMembers %+v end %d", s, got, gotEnd, want, wantEnd)
		}
		for _, m := range want {
			if len(m.Value) > 0 && m.Value[0] == '"' && scan.EndOfString(m.Value, 0) != len(m.Value) {
				t.Fatalf("EndOfString(%q) = %d", m.Value, scan.EndOfString(m.Value, 0))
			}
		}
	})
}
