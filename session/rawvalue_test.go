package session

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// FuzzRawValueTruthy: the raw-text fast path answers exactly what
// jsonv.Truthy answers for the decoded value.
func FuzzRawValueTruthy(f *testing.F) {
	for _, seed := range []string{`null`, `false`, `true`, `0`, `-0`, `0e5`, `1e999`, `""`, `"0"`, `[]`, `{}`, `-0.0`, `"\u0000"`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonv.Parse([]byte(text))
		if err != nil || len(text) == 0 || text[0] <= ' ' || text[len(text)-1] <= ' ' {
			return // RawValue holds one value exactly as written
		}
		if got, want := RawValue(text).Truthy(), jsonv.Truthy(v); got != want {
			t.Fatalf("RawValue(%q).Truthy() = %v, jsonv.Truthy = %v", text, got, want)
		}
	})
}
