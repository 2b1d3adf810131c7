package subagent

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
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

// FuzzSplitStateAgreesWithAWholeDecode: state.json read as a stream (a
// moving window, one record decoded at a time) gives what decoding it
// whole gives — the same records and diagnostics, and invalid JSON wherever
// a whole decode finds it.
func FuzzSplitStateAgreesWithAWholeDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"id":"t","rootSessionId":"r","rootMailbox":[],"agents":{"/root/a":{"descriptor":{"version":5,"path":"/root/a","parentPath":"/root","anchorId":"x"},"sessionFile":"f","status":"completed","mailbox":[]}}}`))
	f.Add([]byte(`{"agents":{"/root/a":{"status":01}},"version":1}`))
	f.Add([]byte(`{"agents":{"/root/a":{},"/root/a":{"status":"running"}},"agents":[],"agents":{"/r\u006ft/b":1}}`))
	f.Add([]byte(` {"agents":{"/root":{"x":"\u0007"}}} `))
	f.Add([]byte(`{"agents":{"/root/x":[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]}} x`))
	f.Add([]byte(`{"version":12345,"agents":{"/root/a":{"error":"a \\\" quote"}}}`))
	f.Add([]byte(`{"agents":{"/root/a":{"descriptor":{"agent":{"name":"r","tools":["a"]},"settings":{"maxDepth":2},"model":{"id":"m"},"path":"/root/a"},"status":"running"},` +
		`"/root/b":{"descriptor":{"agent":{"name":"r","tools":["a"]},"agent":{"name":"s"},"settings":{"maxDepth":2},"path":"/root/b","path":"/root/c"},"descriptor":[],"mailbox":[{"id":"1","text":"t","from":"/root","to":"/root/b","kind":"task"}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, err := jsonv.Parse(data)
		o, isObject := whole.(*jsonv.Object)
		var want *State
		var wantDiags []Diagnostic
		if isObject {
			want, wantDiags = parseStateDoc(docOf(o, "state.json"), "state.json", "t", "r")
		}
		// The default window, and a window of a few bytes (every value
		// crosses its edge) or one.
		for _, window := range []int{stateWindow, 7, 1} {
			st, diags := readState(bytes.NewReader(data), window, "state.json", "t", "r")
			switch {
			case err != nil:
				if st != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, "not valid JSON") {
					t.Fatalf("window %d: invalid JSON read as %+v, %v", window, st, diags)
				}
			case !isObject:
				if st != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, "not an object") {
					t.Fatalf("window %d: a non-object read as %+v, %v", window, st, diags)
				}
			default:
				if !reflect.DeepEqual(st, want) {
					t.Fatalf("window %d: in parts %+v\nwhole %+v", window, st, want)
				}
				if a, b := sortedDiags(diags), sortedDiags(wantDiags); a != b {
					t.Fatalf("window %d: diagnostics in parts\n%s\nwhole\n%s", window, a, b)
				}
			}
		}
	})
}

// docOf is the stateDoc of a state decoded whole (the reference).
func docOf(o *jsonv.Object, file string) *stateDoc {
	doc := &stateDoc{top: o.ShallowClone()}
	if agents, ok := getObj(o, "agents"); ok {
		doc.top.Delete("agents")
		doc.agents = true
		agents.Range(func(key string, v any) bool {
			r := parseAgentRecord(key, v, file)
			doc.diags = append(doc.diags, r.diags...)
			if r.ok {
				doc.records = append(doc.records, r.rec)
			}
			return true
		})
	}
	return doc
}

func sortedDiags(diags []Diagnostic) string {
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = d.String()
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
