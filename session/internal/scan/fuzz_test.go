package scan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzScanner checks the validating scanner against encoding/json's
// grammar check (both accept invalid UTF-8 inside strings).
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `[1,]`, `"\u12"`, `-01`, `1e+`, `{"a" : "b" }`, " \t\r\n0 "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		end, ok := SkipValue(data, 0)
		ours := ok && SkipWS(data, end) == len(data)
		if ours != json.Valid(data) && bytes.Count(data, []byte("[")) < 9000 && bytes.Count(data, []byte("{")) < 9000 {
			t.Fatalf("SkipValue=%v json.Valid=%v for %q", ours, !ours, data)
		}
	})
}
