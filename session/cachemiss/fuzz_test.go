package cachemiss

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// FuzzDetect reads any bytes as a session and runs the detector: it never
// panics, every miss is above the noise floor (or NaN, as Pi's would be)
// and points at an assistant message after its previous request.
func FuzzDetect(f *testing.F) {
	for _, name := range []string{"testdata/gen/gen-01.jsonl", "testdata/gen/gen-05.jsonl"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"type":"session","version":3,"id":"x"}
{"type":"message","id":"a","message":{"role":"assistant","usage":{"input":5000,"cacheRead":0,"cacheWrite":"x","cost":null}}}
{"type":"usage","kind":"cache_warm","id":"w","usage":{"input":1,"cacheRead":9000,"cacheWrite":null}}
{"type":"message","id":"b","message":{"role":"assistant","provider":1,"usage":{"input":9000,"cacheRead":true}}}
`))
	cat := catalog.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := session.Read(bytes.NewReader(data), session.Options{MaxLineBytes: 1 << 16})
		if err != nil {
			return
		}
		for _, m := range Detect(s, nil, cat).Misses {
			if !(m.MissedTokens > NoiseFloorTokens) && !math.IsNaN(m.MissedTokens) {
				t.Fatalf("miss of %v tokens counted", m.MissedTokens)
			}
			if m.PreviousIndex >= m.Index || s.Entries[m.Index].Role != session.RoleAssistant {
				t.Fatalf("miss at %d after %d", m.Index, m.PreviousIndex)
			}
		}
	})
}
