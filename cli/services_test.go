package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// A run builds one services value, however many things its command asks
// of the workspace (library, catalog, session locations, resolver).
func TestARunBuildsOneServices(t *testing.T) {
	args, layout := demoArgs(t)
	before := services.Built()
	code, out, errOut := runCLI(t, in(args, "payload", "diff", "session:01a21c48",
		"preset:project:guarded-worker@"+filepath.Join(layout.SessionDir, demoSessionName), "--json")...)
	if code != exitOK || !strings.Contains(out, `"blocks"`) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if n := services.Built() - before; n != 1 {
		t.Fatalf("one run built %d services values", n)
	}
	g := &Globals{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, ForgeDir: layout.ForgeDir, stderr: &bytes.Buffer{}}
	before = services.Built()
	for range 3 {
		if _, err := g.loadLibrary(); err != nil {
			t.Fatal(err)
		}
		if _, err := g.modelCatalog(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := g.sessionLocations(""); err != nil {
			t.Fatal(err)
		}
		if _, err := g.resolver(); err != nil {
			t.Fatal(err)
		}
	}
	if n := services.Built() - before; n != 1 || g.svc.LibraryLoads() != 1 {
		t.Fatalf("built %d services, read the library %d times; want 1 and 1", n, g.svc.LibraryLoads())
	}
}

const demoSessionName = "2026-11-27T09-14-05-112Z_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl"

// The CLI's resolver and the Payloads panel's (the services' resolver
// with the panel's options: sessions through session.Shared, nothing
// reported) give the same answer for every kind of reference: the same
// request, or the same error.
func TestCLIAndPanelResolveReferencesAlike(t *testing.T) {
	args, layout := demoArgs(t)
	_ = args
	main := filepath.Join(layout.SessionDir, demoSessionName)
	payload := filepath.Join(layout.ProjectDir, ".pi", "forge", "payloads", "01-before-write-access.json")
	presetFile := filepath.Join(layout.ProjectDir, ".pi", "forge", "prompt-stacks", "pi-mirror.json")
	fifo := filepath.Join(t.TempDir(), "stack.json")
	if err := os.WriteFile(fifo, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	refs := []string{
		payload,
		"session:" + main,
		"session:" + main + "#daf1cb7d",
		"session:01a21c48",
		"session:01a21c48#c0430f5a",
		"session:01a2", // ambiguous prefix
		"session:zzzz", // no such session
		"session:" + filepath.Join(layout.ProjectDir, "gone.jsonl"), // a missing file
		"session:" + main + "#nope",                                 // no such entry
		"preset:project:guarded-worker@" + main,
		"preset:guarded-worker@01a21c48#daf1cb7d",
		"preset:" + presetFile + "@" + main,
		"preset:no-such-preset@" + main,
		"preset:" + filepath.Join(layout.ProjectDir, "missing.json") + "@" + main,
		"preset:" + fifo + "@" + main, // not a Preset: parsed with diagnostics, compiled anyway
	}
	g := &Globals{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, ForgeDir: layout.ForgeDir, stderr: &bytes.Buffer{}}
	cliRV, err := g.resolver()
	if err != nil {
		t.Fatal(err)
	}
	panelRV := g.svc.Resolver(services.ResolverOptions{Open: session.Shared})
	for _, s := range refs {
		ref, err := replay.ParseRef(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		a, aerr := resolveRef(cliRV, s)
		b, berr := panelRV.Resolve(ref)
		switch {
		case (aerr == nil) != (berr == nil):
			t.Errorf("%s: CLI error %v, panel error %v", s, aerr, berr)
		case aerr != nil:
			// The CLI prints its exit error's words, the panel the whole
			// error, which names the reference first; both say the same
			// failure (the CLI may say it in its own words around
			// pi-forge's).
			said := aerr.Error()
			var ee *exitError
			if errors.As(aerr, &ee) {
				said = ee.err.Error()
			}
			core := strings.TrimPrefix(berr.Error(), ref.Raw+": ")
			if !strings.HasSuffix(berr.Error(), said) && !strings.Contains(said, core) {
				t.Errorf("%s: CLI says %q, panel %q", s, said, berr)
			}
		default:
			if x, y := jsonv.Stringify(showJSON(a)), jsonv.Stringify(showJSON(b)); x != y {
				t.Errorf("%s: the CLI and the panel resolve different requests:\n%s\n%s", s, x, y)
			}
		}
	}
}
