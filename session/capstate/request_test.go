package capstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// The demo's main session: Preset project:guarded-worker in force from the
// start, "Plain English" activated before the first prompt, write-access
// enabled by the agent at fa181dba (anchored before c0430f5a) and disabled
// at c4c65529.
const (
	demoMain   = "../../resources/demo/workspace/home/.pi/agent/sessions/@@DEMO_SESSION_DIR@@/2026-11-27T09-14-05-112Z_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl"
	demoWorker = "../../resources/demo/workspace/projects/demo-app/.pi/forge/prompt-stacks/guarded-worker.json"
)

func demoForge(t *testing.T, trusted bool, cat *catalog.Catalog) (*session.Session, *Forge) {
	t.Helper()
	s, err := session.Open(demoMain)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(demoWorker)
	if err != nil {
		t.Fatal(err)
	}
	ws := workspace(t, trusted, nil, []string{string(raw)})
	return s, &Forge{Inputs: Inputs{Workspace: ws, Catalog: cat}, Location: time.UTC}
}

func rebuild(t *testing.T, s *session.Session, f *Forge, id string, cat *catalog.Catalog) *replay.Request {
	t.Helper()
	i, ok := s.IndexOf(id)
	if !ok {
		t.Fatalf("no entry %s", id)
	}
	r, err := replay.RequestWith(s, i, replay.RequestOptions{Catalog: cat, Forge: f})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func messageTexts(r *replay.Request) []string {
	mv, _ := r.Payload.Get("messages")
	var out []string
	for _, m := range mv.([]any) {
		out = append(out, turndiff.MessageText(m))
	}
	return out
}

// TestForgeRebuildsWhatPiForgeSent checks the request for c0430f5a, a
// tool-result follow-up after the agent enabled write-access: the compiled
// Preset prompt (its template sees the edit tool), the natural context
// (thinking kept, no working agreement), both capability updates where
// their anchors sit, and what was inferred.
func TestForgeRebuildsWhatPiForgeSent(t *testing.T) {
	cat := catalog.Default()
	s, f := demoForge(t, true, cat)
	r := rebuild(t, s, f, "c0430f5a", cat)
	if r.PresetID != "project:guarded-worker" || r.Turn.Turn.StackID != "guarded-worker" {
		t.Errorf("preset %q stack %q", r.PresetID, r.Turn.Turn.StackID)
	}
	sys, _ := r.Payload.Get("system")
	if !strings.HasPrefix(jsonv.ToString(sys), "You are a careful engineer on the billing team. Write tools are enabled") {
		t.Errorf("system %.90q", sys)
	}
	texts := messageTexts(r)
	if len(texts) != 12 {
		t.Fatalf("%d messages: %q", len(texts), texts)
	}
	plain := "[pi-forge capability update]\nUpdated system prompt section \"forge-capability-58b3f2cf-01ce-4a9c-936d-758a73104f5b\":\n\nExplain results in plain English first"
	if !strings.HasPrefix(texts[0], plain) {
		t.Errorf("first message %q", texts[0])
	}
	if !strings.Contains(texts[11], "forge-capability-3cfaa06f-985c-42f1-b41a-a8a24f3c4a67") || !strings.Contains(texts[10], "Enabled write-access") {
		t.Errorf("the write-access update follows its tool result: %q / %q", texts[10], texts[11])
	}
	if !strings.Contains(texts[2], `"type":"thinking"`) || strings.Contains(strings.Join(texts, "\n"), "Working agreement") {
		t.Errorf("a follow-up carries the natural context: %q", texts[2])
	}
	last := r.Turn.Turn.Blocks[len(r.Turn.Turn.Blocks)-1]
	if o := r.Turn.Blocks[last.Key]; o.Kind != turndiff.CauseCapability || o.CapabilityID != "project:write-access" || !strings.Contains(o.Label, `"Write access"`) {
		t.Errorf("origin of the update %+v", o)
	}
	if o, ok := r.Turn.OriginAt(turndiff.KeySystem, 0); !ok || o.ItemID != "role" {
		t.Errorf("system origin %+v", o)
	}
	notes := strings.Join(r.Inferred, "\n")
	for _, want := range []string{"compiled as the library holds it now", "follow-up", "fallback user messages"} {
		if !strings.Contains(notes, want) {
			t.Errorf("inferred %q lacks %q", r.Inferred, want)
		}
	}

	// The first request of that turn compiles the messages too.
	first := rebuild(t, s, f, "fa181dba", cat)
	ft := messageTexts(first)
	if !strings.HasPrefix(ft[len(ft)-1], "(Working agreement") || strings.Contains(strings.Join(ft, "\n"), `"type":"thinking"`) {
		t.Errorf("first request of the turn: %q", ft)
	}
	d := turndiff.DiffTurns(&first.Turn.Turn, &r.Turn.Turn)
	a := &replay.Resolved{Session: s, Request: first, Index: first.Entry, Turn: first.Turn}
	b := &replay.Resolved{Session: s, Request: r, Index: r.Entry, Turn: r.Turn}
	if c := replay.ExplainDiff(a, b, &d); c == nil || c.Kind != turndiff.CauseCapability || c.CapabilityID != "project:write-access" {
		t.Errorf("cause %+v", c)
	}
}

// TestForgeUntrusted: an untrusted project gets no capability updates,
// and the rebuild says so.
func TestForgeUntrusted(t *testing.T) {
	cat := catalog.Default()
	s, f := demoForge(t, false, cat)
	r := rebuild(t, s, f, "c0430f5a", cat)
	if strings.Contains(strings.Join(messageTexts(r), "\n"), "[pi-forge capability update]") {
		t.Error("capability updates projected for an untrusted project")
	}
	if !strings.Contains(strings.Join(r.Inferred, "\n"), "not trusted") {
		t.Errorf("inferred %q", r.Inferred)
	}
}

// TestForgeNativePresentation: a model that takes mid-conversation system
// messages gets each update as a System section in place.
func TestForgeNativePresentation(t *testing.T) {
	dir := t.TempDir()
	models := `{"providers":{"anthropic":{"modelOverrides":{"claude-sonnet-4-5":{"compat":{"supportsMidConvoSystemMessages":true}}}}}}`
	if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(models), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, _, err := catalog.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, f := demoForge(t, true, cat)
	r := rebuild(t, s, f, "c0430f5a", cat)
	mv, _ := r.Payload.Get("messages")
	var updates []string
	for _, m := range mv.([]any) {
		o := m.(*jsonv.Object)
		if role, _ := o.Get("role"); role == "system" {
			updates = append(updates, turndiff.MessageText(o))
		}
	}
	if len(updates) != 2 || !strings.HasPrefix(updates[1], `Updated system prompt section "forge-capability-3cfaa06f`) {
		t.Errorf("native updates %q", updates)
	}
	if strings.Contains(strings.Join(r.Inferred, "\n"), "fallback") {
		t.Errorf("inferred %q", r.Inferred)
	}
}

// TestForgeLeavesPlainSessionsAlone: without pi-forge records or a Preset
// in force the request is Pi's own.
func TestForgeLeavesPlainSessionsAlone(t *testing.T) {
	b := newBuilder()
	b.add("message", `"message":{"role":"user","content":"hi","timestamp":1}`)
	b.add("message", `"message":{"role":"assistant","content":[{"type":"text","text":"hello"}],"provider":"anthropic","model":"claude-sonnet-4-5","timestamp":2}`)
	s, err := session.Read(strings.NewReader(b.buf.String()), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &Forge{Inputs: Inputs{Workspace: &capability.Workspace{Trusted: true}}}
	ctx, err := s.Context(0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Rewrite(s, replay.ForgeInput{Context: ctx, Messages: ctx.AgentMessages(), FirstOfTurn: true})
	if err != nil || out != nil {
		t.Errorf("rewrite %+v, %v", out, err)
	}
}

// TestForgeCompiledTurnCause: the first request of a turn carries the
// compiled messages (thinking stripped, the working agreement after the
// history), its follow-up Pi's natural context; that is what moves the
// boundary between them, and the cause says so.
func TestForgeCompiledTurnCause(t *testing.T) {
	cat := catalog.Default()
	s, f := demoForge(t, true, cat)
	first, follow := rebuild(t, s, f, "d49fd546", cat), rebuild(t, s, f, "97483ff7", cat)
	if !first.MessagesCompiled || follow.MessagesCompiled {
		t.Fatalf("compiled: first %v follow-up %v", first.MessagesCompiled, follow.MessagesCompiled)
	}
	d := turndiff.DiffTurns(&first.Turn.Turn, &follow.Turn.Turn)
	a := &replay.Resolved{Session: s, Request: first, Index: first.Entry, Turn: first.Turn}
	b := &replay.Resolved{Session: s, Request: follow, Index: follow.Entry, Turn: follow.Turn}
	c := replay.ExplainDiff(a, b, &d)
	if !turndiff.BreaksCache(&d, &first.Turn.Turn) || c == nil || c.Kind != turndiff.CausePreset || c.PresetID != "project:guarded-worker" || c.EntryID != "d49fd546" {
		t.Errorf("cause %+v", c)
	}
}

// TestForgeNeedsARecordedSelection: pi-forge records the active Preset at
// every turn start, so a branch without a selection had no Preset, even
// when today's library auto-activates one.
func TestForgeNeedsARecordedSelection(t *testing.T) {
	cat := catalog.Default()
	_, f := demoForge(t, true, cat)
	f.Inputs.Workspace.AutoActivate = f.Inputs.Workspace.Presets[0]
	b := newBuilder()
	b.custom("pi-forge-agent-profile-state", jsonv.NewObject()) // pi-forge ran, recorded no Preset
	b.add("message", `"message":{"role":"user","content":"hi","timestamp":1}`)
	b.add("message", `"message":{"role":"assistant","content":[{"type":"text","text":"hello"}],"provider":"anthropic","model":"claude-sonnet-4-5","timestamp":2}`)
	plain, err := session.Read(strings.NewReader(b.buf.String()), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.RequestWith(plain, plain.LeafIndex(), replay.RequestOptions{Catalog: cat, Forge: f})
	if err != nil {
		t.Fatal(err)
	}
	if r.PresetID != "" {
		t.Errorf("compiled %s without a recorded selection", r.PresetID)
	}
}

// A session pi-forge never wrote to went out as Pi built it whatever the
// library holds: LazyForge answers so without loading the library, so a
// library that cannot load (or is slow to) spares plain Pi sessions; a
// session pi-forge wrote to still needs it and reports its error.
func TestLazyForgeLoadsTheLibraryOnlyForSessionsPiForgeWroteTo(t *testing.T) {
	src := `{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	plain, err := session.Read(strings.NewReader(src), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	loads := 0
	forge := LazyForge(func() (*Forge, error) {
		loads++
		return nil, os.ErrPermission
	})
	req, err := replay.RequestWith(plain, 0, replay.RequestOptions{Forge: forge})
	if err != nil || req.Rewritten || loads != 0 {
		t.Fatalf("a plain Pi session: err %v, rewritten %v, library loads %d", err, req != nil && req.Rewritten, loads)
	}
	touched, err := session.Open(demoMain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.RequestWith(touched, touched.LeafIndex(), replay.RequestOptions{Forge: forge}); err == nil || loads != 1 {
		t.Fatalf("a session pi-forge wrote to needs the library: err %v, loads %d", err, loads)
	}
}
