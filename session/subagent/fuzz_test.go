package subagent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"version":1,"id":"t","rootSessionId":"r","rootMailbox":[],"agents":{"/root/a":{"descriptor":{"version":5,"path":"/root/a","parentPath":"/root","anchorId":"x"},"sessionFile":"f","status":"completed","mailbox":[{"id":"1","from":"/root","to":"/root/a","kind":"task","text":"x"}],"lifecycle":"closed","model":"a/b","last_response":{"model":"a/c"}}}}`))
	f.Add([]byte(`{"agents":{"/root":1,"":{},"/root/a/b":{"descriptor":[]}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, diags := ParseState(data, "state.json", "t", "r")
		if st == nil && len(diags) == 0 {
			t.Fatal("no state and no diagnostic")
		}
		if st != nil {
			for i := 1; i < len(st.Records); i++ {
				if st.Records[i-1].Path > st.Records[i].Path {
					t.Fatal("records not sorted")
				}
			}
			for _, r := range st.Records {
				if r.Lifecycle == "" {
					t.Fatalf("%s: empty lifecycle (absent must read as open)", r.Path)
				}
			}
		}
	})
}

func FuzzParseDescriptor(f *testing.F) {
	f.Add([]byte(`{"version":5,"id":"i","path":"/root/a","parentPath":"/root","depth":1,"agent":{"name":"x","tools":["a",1]},"model":{"provider":"p","id":"m"},"settings":{"maxDepth":"3"},"anchorId":"z"}`), "/root/a")
	f.Add([]byte(`{"version":6}`), "")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		v, err := jsonv.Parse(data)
		if err != nil {
			return
		}
		d, probs := parseDescriptor(v, key)
		if key != "" && d.Path != key {
			found := false
			for _, p := range probs {
				found = found || p.severity == SevError
			}
			if !found {
				t.Fatalf("path %q under key %q accepted", d.Path, key)
			}
		}
	})
}

func FuzzTelemetry(f *testing.F) {
	f.Add([]byte(`{"runs":[{"startedAt":"2026-11-28T10:00:00Z","endedAt":"2026-11-28T10:00:01Z"}],"context":{"tokens":5}}`))
	f.Add([]byte(`{"a":{"b":[{"start":1,"end":0}]},"runtimeMs":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(file+TelemetrySuffix, data, 0o600); err != nil {
			t.Fatal(err)
		}
		tel := readTelemetry(file)
		if tel == nil {
			t.Fatal("an existing sidecar read as absent")
		}
		if ms, ok := tel.RuntimeMs(); ok && ms < 0 {
			t.Fatalf("negative run time %v", ms)
		}
	})
}
