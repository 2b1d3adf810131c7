package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// `session context --as-sent` is the request `payload show
// session:FILE#ENTRY` rebuilds — pi-forge's compiled system prompt where
// its Preset rewrote the request — and its --json is payload show's
// document, byte for byte; without the flag the context stays Pi's.
func TestSessionContextAsSentIsPayloadShow(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.SessionDir, filepath.Base(demoSession))
	for _, entry := range []string{"c0430f5a", "862c1f60", "fa181dba", ""} {
		ref := "session:" + file
		ctx := in(args, "session", "context", file, "--as-sent", "--json")
		if entry != "" {
			ref += "#" + entry
			ctx = append(ctx, "--leaf", entry)
		}
		code, want, errOut := runCLI(t, in(args, "payload", "show", ref, "--json")...)
		if code != exitOK {
			t.Fatalf("payload show %s: exit %d: %s", ref, code, errOut)
		}
		code, got, errOut := runCLI(t, ctx...)
		if code != exitOK || got != want {
			t.Fatalf("--as-sent --json at %q: exit %d %s\n got: %.300s\nwant: %.300s", entry, code, errOut, got, want)
		}
	}
	code, out, errOut := runCLI(t, in(args, "session", "context", file, "--leaf", "c0430f5a", "--as-sent")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"as sent · request for assistant entry c0430f5a (context at daf1cb7d) · model anthropic/claude-sonnet-4-5 · thinking medium · 13 messages\n",
		"pi-forge: Preset project:guarded-worker compiled this request\n",
		"inferred: Preset project:guarded-worker compiled as the library holds it now",
		"tools (7): read, grep, ls, forge_capability, edit, write, bash\n",
		"\n── 1 · system ──\nYou are a careful engineer on the billing team.",
		"\n── 2 · user ──\n[pi-forge capability update]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--as-sent lacks %q:\n%.1500s", want, out)
		}
	}
	if strings.Contains(out, "You are the coding assistant") {
		t.Error("--as-sent shows Pi's system prompt")
	}
	code, out, _ = runCLI(t, in(args, "session", "context", file, "--leaf", "c0430f5a")...)
	if code != exitOK || !strings.Contains(out, "── 1 · system ──\nYou are the coding assistant") || strings.Contains(out, "careful engineer") {
		t.Errorf("without --as-sent the context is Pi's:\n%.600s", out)
	}
	if code, _, errOut = runCLI(t, in(args, "session", "context", file, "--leaf", "nope", "--as-sent")...); code != exitUsage {
		t.Errorf("unknown entry: exit %d, want %d: %s", code, exitUsage, errOut)
	}
}

// Where nothing rewrote the request, --as-sent says so.
func TestSessionContextAsSentSaysWhenNothingRewroteIt(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.SessionDir, "2026-11-27T16-02-41-907Z_01a21dbe-a073-75f0-9dfd-a08c7d2b5524.jsonl")
	code, out, errOut := runCLI(t, in(args, "session", "context", file, "--as-sent")...)
	if code != exitOK || !strings.Contains(out, "\nnothing rewrote this request: Pi built it alone\n") {
		t.Fatalf("exit %d %s:\n%.600s", code, errOut, out)
	}
}
