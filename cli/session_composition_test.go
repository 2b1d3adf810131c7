package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const compositionSession = "../session/compare/testdata/composition.jsonl"

func TestSessionCompositionText(t *testing.T) {
	for _, leaf := range []string{"c0000006", "c0000007"} {
		code, out, errOut := runCLI(t, "--agent-dir", t.TempDir(), "session", "composition", compositionSession, "--leaf", leaf)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		checkGolden(t, "session-composition-"+leaf+".txt", out)
	}
}

// compositionParts runs --json and checks the contract: the keys in
// order and part tokens adding up to total.
func compositionParts(t *testing.T, args ...string) (*jsonv.Object, []*jsonv.Object) {
	t.Helper()
	code, out, errOut := runCLI(t, append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	v, err := jsonv.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(*jsonv.Object)
	if got := strings.Join(obj.Keys(), ","); got != "total,recordedInput,parts" {
		t.Fatalf("keys %s", got)
	}
	pv, _ := obj.Get("parts")
	var parts []*jsonv.Object
	sum := 0.0
	for _, p := range pv.([]any) {
		po := p.(*jsonv.Object)
		if got := strings.Join(po.Keys(), ","); got != "kind,label,ref,chars,tokens,share,inPrefix" {
			t.Fatalf("part keys %s", got)
		}
		tok, _ := po.Get("tokens")
		sum += tok.(float64)
		parts = append(parts, po)
	}
	if total, _ := obj.Get("total"); total != sum {
		t.Fatalf("parts add up to %v, total %v", sum, total)
	}
	return obj, parts
}

// Where pi-forge compiled the request, the system prompt splits by Preset
// item, and capability updates are parts of their own.
func TestSessionCompositionSplitsByPresetItem(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.SessionDir, filepath.Base(demoSession))
	obj, parts := compositionParts(t, in(args, "session", "composition", file, "--leaf", "c0430f5a")...)
	if rec, _ := obj.Get("recordedInput"); rec == nil {
		t.Fatal("c0430f5a records its usage: recordedInput is null")
	}
	if total, _ := obj.Get("total"); total != mustGet(obj, "recordedInput") {
		t.Errorf("total %v, recorded %v: the estimates are not scaled", total, mustGet(obj, "recordedInput"))
	}
	seen := map[string]bool{}
	for _, p := range parts {
		seen[mustGet(p, "kind").(string)+":"+jsonv.ToString(mustGet(p, "ref"))] = true
	}
	for _, want := range []string{"preset-item:role", "preset-item:project-context", "tool:forge_capability", "tool-result:grep"} {
		if !seen[want] {
			t.Errorf("no part %s in %v", want, seen)
		}
	}
	capability := false
	for k := range seen {
		capability = capability || strings.HasPrefix(k, "capability:")
	}
	if !capability {
		t.Errorf("no capability part in %v", seen)
	}
}

func mustGet(o *jsonv.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

func TestSessionCompositionUnknownEntry(t *testing.T) {
	code, _, errOut := runCLI(t, "--agent-dir", t.TempDir(), "session", "composition", compositionSession, "--leaf", "nope")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, errOut)
	}
}
