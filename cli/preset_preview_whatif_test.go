package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func whatIfOf(t *testing.T, args ...string) *jsonv.Object {
	t.Helper()
	code, out, errOut := runCLI(t, append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	v, err := jsonv.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	w, ok := v.(*jsonv.Object).Get("whatIf")
	if !ok {
		t.Fatalf("no whatIf in %.300s", out)
	}
	return w.(*jsonv.Object)
}

// Dropping an item saves its tokens and breaks the cache at it: what the
// item produced is the boundary, the tool definitions before it stay.
func TestPresetPreviewWithoutItem(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.SessionDir, filepath.Base(demoSession))
	base := in(args, "preset", "preview", "guarded-worker", "--session", file, "--leaf", "c0430f5a")
	code, full, _ := runCLI(t, append(base, "--json")...)
	if code != exitOK {
		t.Fatal("preview failed")
	}
	w := whatIfOf(t, append(base, "--without", "project-context")...)
	delta, _ := w.Get("delta")
	before, _ := w.Get("tokensBefore")
	after, _ := w.Get("tokensAfter")
	if delta.(float64) >= 0 || before.(float64)+delta.(float64) != after.(float64) {
		t.Errorf("delta %v, before %v, after %v", delta, before, after)
	}
	b, _ := w.Get("boundary")
	if ref, _ := b.(*jsonv.Object).Get("ref"); ref != "project-context" {
		t.Errorf("boundary %s", jsonv.Stringify(b))
	}
	if counted, _ := w.Get("toolDefinitionsCounted"); counted != true {
		t.Error("the session records the tool definitions, yet they were not counted")
	}
	if prefix, _ := w.Get("prefixTokens"); prefix.(float64) <= 0 {
		t.Errorf("prefix %v: the tools before the item stay cached", prefix)
	}
	// The preview itself is of the Preset without the item.
	code, out, _ := runCLI(t, append(base, "--without", "project-context", "--json")...)
	if code != exitOK || strings.Contains(out, `"itemId":"project-context"`) || !strings.Contains(full, `"itemId":"project-context"`) {
		t.Error("the what-if preview still holds project-context (or the full one lacks it)")
	}
	code, text, _ := runCLI(t, append(base, "--without", "project-context")...)
	if code != exitOK || !strings.Contains(text, "WHAT-IF · without item(s) project-context · nothing saved") || !strings.Contains(text, "the boundary moves to preset-item") {
		t.Errorf("text output:\n%s", text)
	}
}

func TestPresetPreviewWithoutTool(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.SessionDir, filepath.Base(demoSession))
	w := whatIfOf(t, in(args, "preset", "preview", "guarded-worker", "--session", file, "--leaf", "c0430f5a", "--without-tool", "bash")...)
	b, _ := w.Get("boundary")
	if kind, _ := b.(*jsonv.Object).Get("kind"); kind != "tool" {
		t.Errorf("boundary %s, want the bash tool", jsonv.Stringify(b))
	}
	if delta, _ := w.Get("delta"); delta.(float64) >= 0 {
		t.Errorf("delta %v", delta)
	}
}

func TestPresetPreviewWithoutUnknownNames(t *testing.T) {
	args, _ := demoArgs(t)
	for _, flag := range [][]string{{"--without", "nope"}, {"--without-tool", "nope"}} {
		code, _, errOut := runCLI(t, in(args, append([]string{"preset", "preview", "guarded-worker"}, flag...)...)...)
		if code != exitUsage || !strings.Contains(errOut, "nope") {
			t.Errorf("%v: exit %d, %s", flag, code, errOut)
		}
	}
}
