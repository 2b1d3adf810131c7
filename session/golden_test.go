package session

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

const (
	piSessions   = "pi-sessions" // under the shared fixtures directory
	generatedDir = piSessions + "/generated-pi-1.6.0/agent/sessions/--home-dev-projects-demo-app--"
	mainFile     = generatedDir + "/2026-11-29T22-47-39-368Z_01a2297e-1867-72d0-99d9-f9f8b12b74b4.jsonl"
	forkFile     = generatedDir + "/2026-11-29T22-47-39-378Z_01a2297e-1872-72d0-99d9-f9fb033ed71b.jsonl"
)

type goldenCase struct {
	golden string
	source string
	leaf   string
}

var goldenCases = []goldenCase{
	{"generated-main.context.json", mainFile, ""},
	{"generated-main.pre-compaction-leaf-17d7bd27.context.json", mainFile, "17d7bd27"},
	{"generated-main.alt-leaf-c71ae143.context.json", mainFile, "c71ae143"},
	{"generated-fork.context.json", forkFile, ""},
	{"before-compaction.context.json", piSessions + "/upstream/pi-mono/before-compaction.jsonl", ""},
	{"large-session.context.json", piSessions + "/upstream/pi-mono/large-session.jsonl", ""},
}

func TestGoldenContexts(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.golden, func(t *testing.T) {
			raw := fixtures.Read(t, piSessions+"/golden-pi-1.6.0/"+gc.golden)
			source := fixtures.Path(t, gc.source)
			var want map[string]any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			s, err := Open(source)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ContextJSON(s, gc.leaf)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			if gc.leaf != "" {
				if got["leafId"] != gc.leaf {
					t.Errorf("leafId = %v, want %s", got["leafId"], gc.leaf)
				}
			} else if leaf, _ := s.Leaf(); got["leafId"] != leaf.ID {
				t.Errorf("leafId = %v, want last entry %s", got["leafId"], leaf.ID)
			}
			keys := []string{"thinkingLevel", "model", "agentMessages", "llmMessages"}
			if _, ok := want["projectedEntries"]; ok {
				keys = append(keys, "projectedEntries")
			}
			for _, k := range keys {
				compareJSON(t, k, got[k], want[k])
			}
			// Beyond value equality, key order must match JSON.stringify.
			wantOrdered, err := jsonv.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			gotOrdered, err := jsonv.Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				w, _ := wantOrdered.(*jsonv.Object).Get(k)
				g, _ := gotOrdered.(*jsonv.Object).Get(k)
				if jsonv.Stringify(w) != jsonv.Stringify(g) {
					t.Errorf("%s: same values but different key order or number formatting", k)
				}
			}
		})
	}
}

// compareJSON reports the first difference between two decoded JSON values.
func compareJSON(t *testing.T, path string, got, want any) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	switch w := want.(type) {
	case []any:
		g, ok := got.([]any)
		if !ok {
			t.Errorf("%s: got %T, want array", path, got)
			return
		}
		if len(g) != len(w) {
			t.Errorf("%s: length %d, want %d", path, len(g), len(w))
		}
		for i := 0; i < len(g) && i < len(w); i++ {
			if !reflect.DeepEqual(g[i], w[i]) {
				compareJSON(t, fmt.Sprintf("%s[%d]", path, i), g[i], w[i])
				return
			}
		}
		return
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s: got %T, want object", path, got)
			return
		}
		for k := range w {
			if !reflect.DeepEqual(g[k], w[k]) {
				compareJSON(t, path+"."+k, g[k], w[k])
				return
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				t.Errorf("%s: unexpected key %q", path, k)
				return
			}
		}
	}
	gs, _ := json.Marshal(got)
	ws, _ := json.Marshal(want)
	t.Errorf("%s:\n got  %.400s\n want %.400s", path, gs, ws)
}
