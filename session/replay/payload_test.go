package replay

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// The demo workspace's sessions exercise capabilities, branches, a
// compaction and a model switch.
const (
	demoSessions = "../../resources/demo/workspace/home/.pi/agent/sessions/@@DEMO_SESSION_DIR@@/"
	demoMain     = demoSessions + "2026-11-27T09-14-05-112Z_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl"
	demoPresets  = "../../resources/demo/workspace/projects/demo-app/.pi/forge/prompt-stacks/"
)

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		in, kind, path, entry, sel, err string
	}{
		{in: "saved/a.json", kind: RefFile, path: "saved/a.json"},
		{in: "session:s.jsonl#abc", kind: RefSession, path: "s.jsonl", entry: "abc"},
		{in: "session:dir#1/s.jsonl#abc", kind: RefSession, path: "dir#1/s.jsonl", entry: "abc"},
		{in: "session:s.jsonl", kind: RefSession, path: "s.jsonl"},
		{in: "preset:project:guarded@s.jsonl#e1", kind: RefPreset, path: "s.jsonl", entry: "e1", sel: "project:guarded"},
		{in: "preset:./p@x.json@s.jsonl#e1", kind: RefPreset, path: "x.json@s.jsonl", entry: "e1", sel: "./p"},
		{in: "./session:x.json", kind: RefFile, path: "./session:x.json"},
		{in: "", err: "empty"},
		{in: "session:#e", err: "no session file"},
		{in: "session:s.jsonl#", err: "empty entry"},
		{in: "preset:s.jsonl#e", err: "SELECTOR@FILE"},
		{in: "preset:@s.jsonl", err: "SELECTOR@FILE"},
	} {
		r, err := ParseRef(tc.in)
		if tc.err != "" {
			if err == nil || !errors.Is(err, ErrBadRef) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseRef(%q): error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || r.Kind != tc.kind || r.Path != tc.path || r.Entry != tc.entry || r.Selector != tc.sel {
			t.Errorf("ParseRef(%q) = %+v, %v", tc.in, r, err)
		}
		if again, _ := ParseRef(r.String()); again != r && !(tc.kind == RefFile) {
			t.Errorf("round trip of %q: %+v", tc.in, again)
		}
	}
}

func demoResolver(t *testing.T) (*Resolver, *session.Session) {
	t.Helper()
	s, err := session.Open(demoMain)
	if err != nil {
		t.Fatal(err)
	}
	rv := &Resolver{
		Catalog: catalog.Default(),
		Open: func(p string) (*session.Session, error) {
			if p != "demo" {
				t.Fatalf("opened %q", p)
			}
			return s, nil
		},
		LoadPreset: func(sel string) (*preset.Stack, string, error) {
			raw, err := os.ReadFile(filepath.Join(demoPresets, sel+".json"))
			if err != nil {
				return nil, "", err
			}
			st, _ := preset.Parse(raw, sel+".json")
			return st, "project:" + sel, nil
		},
		Location: time.UTC,
	}
	return rv, s
}

func resolveDiff(t *testing.T, rv *Resolver, a, b string) (*Resolved, *Resolved, turndiff.Diff, *turndiff.Cause) {
	t.Helper()
	var sides [2]*Resolved
	for i, s := range []string{a, b} {
		ref, err := ParseRef(s)
		if err != nil {
			t.Fatal(err)
		}
		if sides[i], err = rv.Resolve(ref); err != nil {
			t.Fatal(err)
		}
	}
	d := turndiff.DiffTurns(&sides[0].Turn.Turn, &sides[1].Turn.Turn)
	return sides[0], sides[1], d, ExplainDiff(sides[0], sides[1], &d)
}

func TestRequestAtAssistant(t *testing.T) {
	rv, s := demoResolver(t)
	r, err := rv.Resolve(Ref{Kind: RefSession, Path: "demo", Entry: "bb6de122", Raw: "session:demo#bb6de122"})
	if err != nil {
		t.Fatal(err)
	}
	req := r.Request
	if !req.ForAssistant || s.Entries[req.ContextIndex].ID != "60e17bab" || req.Usage == nil || req.Usage.CacheWrite != 3120 {
		t.Fatalf("request %+v", req)
	}
	if got := strings.Join(req.Payload.Keys(), ","); got != "model,tools,system,messages" {
		t.Errorf("payload keys %s", got)
	}
	keys := []string{}
	for _, b := range r.Turn.Turn.Blocks {
		keys = append(keys, b.Key)
	}
	if len(keys) != 4 || keys[0] != "request-model" || keys[1] != "request-tools" || keys[2] != "system" || !strings.HasPrefix(keys[3], "message-user-") {
		t.Errorf("blocks %v", keys)
	}
	if req.EntryOf[keys[3]] != "60e17bab" || req.EntryOf["system"] != "32775455" {
		t.Errorf("entries %v", req.EntryOf)
	}
	sys, _ := req.Payload.Get("system")
	if !strings.HasPrefix(sys.(string), "You are the coding assistant of a small demo workspace.") {
		t.Errorf("system %.80q", sys)
	}
	if r.Turn.Turn.TurnID != "session:demo#bb6de122" {
		t.Errorf("turn id %q", r.Turn.Turn.TurnID)
	}
}

func TestSessionCauses(t *testing.T) {
	rv, _ := demoResolver(t)
	for _, tc := range []struct {
		a, b, kind, entry, capability, detail string
	}{
		{"fa181dba", "c0430f5a", turndiff.CauseCapability, "79edfa55", "project:write-access", `capability "Write access" activated: tools +edit +write +bash`},
		{"c4c65529", "cbfd55bd", turndiff.CauseCapability, "cbf35b8b", "project:write-access", `capability "Write access" deactivated: tools −edit −write −bash`},
		{"cbfd55bd", "a37d5e1c", turndiff.CauseModel, "1631f73e", "", "model anthropic/claude-sonnet-4-5 → openai/gpt-5.4"},
		{"2e32a9eb", "fa181dba", turndiff.CauseBranch, "e5af7a00", "", "the requests are on different branches; they part after entry e5af7a00"},
		{"bb6de122", "f8109fb4", "", "", "", ""}, // messages appended: the cache holds
	} {
		_, _, d, c := resolveDiff(t, rv, "session:demo#"+tc.a, "session:demo#"+tc.b)
		if tc.kind == "" {
			if c != nil || d.Summary.ModifiedBlocks != 0 || d.Summary.AddedBlocks != 2 {
				t.Errorf("%s→%s: cause %+v summary %+v", tc.a, tc.b, c, d.Summary)
			}
			continue
		}
		if c == nil || c.Kind != tc.kind || c.EntryID != tc.entry || c.CapabilityID != tc.capability || c.Detail != tc.detail {
			t.Errorf("%s→%s: cause %+v", tc.a, tc.b, c)
		}
	}
}

func TestCompactionCause(t *testing.T) {
	// Same model on both sides: only the compaction can explain the break.
	rv, s := demoResolver(t)
	a, b, d, _ := resolveDiff(t, rv, "session:demo#cbfd55bd", "session:demo#a37d5e1c")
	if b.Request.CompactionIndex < 0 || s.Entries[b.Request.CompactionIndex].ID != "344a6751" || a.Request.CompactionIndex >= 0 {
		t.Fatalf("compactions %d %d", a.Request.CompactionIndex, b.Request.CompactionIndex)
	}
	row := -1
	for i, x := range d.Blocks {
		if x.Status != turndiff.StatusSame && x.After != nil && strings.HasPrefix(x.After.Key, "message-") {
			row = i
			break
		}
	}
	c := explainSessionChange(a, b, &d.Blocks[row], d.Blocks[row].After.Key)
	if c == nil || c.Kind != turndiff.CauseCompaction || c.EntryID != "344a6751" {
		t.Errorf("cause %+v", c)
	}
}

func TestCacheReport(t *testing.T) {
	_, s := demoResolver(t)
	rep := CacheReportAt(s, s.LeafIndex())
	if len(rep.Uses) != 12 || rep.File.Requests != 13 || len(rep.Branch.Drops) != 1 {
		t.Fatalf("uses %d file %d drops %v", len(rep.Uses), rep.File.Requests, rep.Branch.Drops)
	}
	k := rep.Branch.Drops[0]
	u := rep.Uses[k]
	if u.EntryID != "d49fd546" || u.Lost != 6850 || u.CacheRead != 1200 {
		t.Errorf("drop %+v", u)
	}
	p := PredictAt(s, rep.Uses, k, RequestOptions{Catalog: catalog.Default()})
	if p.Err != nil || !p.Breaks || p.Cause == nil || p.Cause.Kind != turndiff.CauseModel || p.Diff.PrefixTokens > 10 {
		t.Errorf("prediction %+v cause %+v", p.Diff.Summary, p.Cause)
	}
	if rep.Branch.HitRatio <= 0.7 || rep.Branch.HitRatio >= 0.8 {
		t.Errorf("hit ratio %v", rep.Branch.HitRatio)
	}
}

func TestPresetRequest(t *testing.T) {
	rv, _ := demoResolver(t)
	a, b, d, c := resolveDiff(t, rv, "session:demo#c0430f5a", "preset:guarded-worker@demo#c0430f5a")
	if b.Stack == nil || b.PresetID != "project:guarded-worker" || b.Request.PresetID != "project:guarded-worker" || b.Request.ContextIndex != a.Request.ContextIndex {
		t.Fatalf("preset side %+v", b.Request)
	}
	if b.Request.Usage != nil {
		t.Errorf("a preset's request has no recorded usage")
	}
	sys, _ := b.Request.Payload.Get("system")
	if !strings.HasPrefix(sys.(string), "You are a careful engineer on the billing team. Write tools are enabled") {
		t.Errorf("system block is not the compiled prompt: %.80q", sys)
	}
	if o, ok := b.Turn.OriginAt("system", 0); !ok || o.Kind != turndiff.CausePresetItem || o.ItemID != "role" || o.PresetID != "project:guarded-worker" {
		t.Errorf("origin of the first character %+v", o)
	}
	// c0430f5a follows a tool result: pi-forge compiles only the system
	// prompt, the messages are the natural context.
	if len(b.Request.Inferred) != 1 || !strings.Contains(b.Request.Inferred[0], "follow-up") {
		t.Errorf("inferred %q", b.Request.Inferred)
	}
	// The compiled prompt differs from Pi's recorded one.
	if d.Summary.ModifiedBlocks == 0 {
		t.Fatalf("no change: %+v", d.Summary)
	}
	if c == nil || c.Block == "" {
		t.Fatalf("no cause")
	}
	// Two presets at one entry: causes come from the presets themselves.
	_, _, d2, c2 := resolveDiff(t, rv, "preset:pi-mirror@demo#c0430f5a", "preset:guarded-worker@demo#c0430f5a")
	if d2.Summary.ChangedBlocks == 0 || c2 == nil || c2.PresetID != "project:guarded-worker" {
		t.Errorf("preset pair: %+v cause %+v", d2.Summary, c2)
	}
	// On the first request of a turn the messages are compiled too: the
	// working agreement follows the history and carries its item.
	_, first, _, _ := resolveDiff(t, rv, "session:demo#fa181dba", "preset:guarded-worker@demo#fa181dba")
	last := first.Turn.Turn.Blocks[len(first.Turn.Turn.Blocks)-1]
	if o := first.Turn.Blocks[last.Key]; o.Kind != turndiff.CausePresetItem || o.ItemID != "working-agreement" || !strings.HasPrefix(last.Text, "(Working agreement") {
		t.Errorf("last block %s %.40q origin %+v", last.Key, last.Text, o)
	}
	if len(first.Request.Inferred) != 0 {
		t.Errorf("inferred %q", first.Request.Inferred)
	}
}

func TestPresetRequestFallback(t *testing.T) {
	s, err := session.Read(strings.NewReader(`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := preset.Parse([]byte(`{"schemaVersion":1,"id":"p","items":[{"kind":"block","id":"b","role":"system","content":"Be brief."},{"kind":"slot","id":"h","slot":"chat-history"}]}`), "p.json")
	if _, err := PresetRequestAt(s, 0, PresetInput{Stack: st}); err == nil {
		t.Fatal("a session without a recorded prompt needs a fallback runtime")
	}
	pr, err := PresetRequestAt(s, 0, PresetInput{Stack: st, PresetID: "p", Fallback: func() (compile.Runtime, string, error) {
		return compile.Runtime{Now: time.Unix(0, 0)}, "BASE", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	sys, _ := pr.Payload.Get("system")
	msgs, _ := pr.Payload.Get("messages")
	if sys != "Be brief." || len(msgs.([]any)) != 1 || jsonv.Stringify(msgs) != `[{"role":"user","content":"hi"}]` {
		t.Errorf("payload %s", jsonv.Stringify(pr.Payload))
	}
}

func TestResolveErrors(t *testing.T) {
	rv, _ := demoResolver(t)
	if _, err := rv.Resolve(Ref{Kind: RefSession, Path: "demo", Entry: "nope", Raw: "session:demo#nope"}); !errors.Is(err, session.ErrUnknownEntry) {
		t.Errorf("unknown entry: %v", err)
	}
	rv.LoadPreset = nil
	if _, err := rv.Resolve(Ref{Kind: RefPreset, Path: "demo", Selector: "x", Raw: "preset:x@demo"}); err == nil {
		t.Error("preset without a loader")
	}
	if _, err := rv.Resolve(Ref{Kind: RefFile, Path: filepath.Join(t.TempDir(), "missing.json")}); err == nil {
		t.Error("missing file")
	}
}

// TestResolveHashInPath: a session file whose path holds "#" resolves
// without an entry (the default leaf) as well as with one.
func TestResolveHashInPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "we#ird")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.jsonl")
	data := `{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	rv := &Resolver{}
	for _, raw := range []string{"session:" + path, "session:" + path + "#u1"} {
		ref, err := ParseRef(raw)
		if err != nil {
			t.Fatal(err)
		}
		r, err := rv.Resolve(ref)
		if err != nil || r.Ref.Path != path || r.Session.Entries[r.Index].ID != "u1" {
			t.Errorf("%s: %v %+v", raw, err, r)
		}
	}
}

func TestPreviousRequestAndRequestEntries(t *testing.T) {
	_, s := demoResolver(t)
	idx := func(id string) int {
		i, ok := s.IndexOf(id)
		if !ok {
			t.Fatalf("no %s", id)
		}
		return i
	}
	for at, want := range map[string]string{"c0430f5a": "fa181dba", "7fd117d2": "79b86729", "bb6de122": "", "60e17bab": ""} {
		got := PreviousRequest(s, idx(at))
		if want == "" && got != -1 || want != "" && (got < 0 || s.Entries[got].ID != want) {
			t.Errorf("PreviousRequest(%s) = %d, want %s", at, got, want)
		}
	}
	if PreviousRequest(s, -1) != -1 || PreviousRequest(s, len(s.Entries)) != -1 {
		t.Error("out of range")
	}
	reqs := RequestEntries(s, idx("2e32a9eb"))
	var ids []string
	for _, i := range reqs {
		ids = append(ids, s.Entries[i].ID)
	}
	if strings.Join(ids, ",") != "bb6de122,f8109fb4,79b86729,2e32a9eb" {
		t.Errorf("requests of the abandoned branch: %v", ids)
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"a.json", "session:s.jsonl#e", "preset:project:x@s.jsonl#e", "session:#", "preset:@", "session:a#b#c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRef(s)
		if err != nil {
			if !errors.Is(err, ErrBadRef) {
				t.Fatalf("error %v does not wrap ErrBadRef", err)
			}
			return
		}
		if r.Raw != s || r.Path == "" && r.Kind != RefFile {
			t.Fatalf("%q → %+v", s, r)
		}
		back, err := ParseRef(r.String())
		if err != nil || back.Kind != r.Kind || back.Path != r.Path || back.Entry != r.Entry || back.Selector != r.Selector {
			if r.Kind == RefFile && (strings.HasPrefix(s, sessionRefPrefix) || strings.HasPrefix(s, presetRefPrefix)) {
				t.Fatalf("a plain file parsed from a prefixed reference %q", s)
			}
			if r.Kind != RefFile {
				t.Fatalf("%q does not round-trip: %+v vs %+v (%v)", s, back, r, err)
			}
		}
	})
}

// countingForge counts the requests rebuilt and leaves them as Pi built
// them.
// countingForge counts the requests rebuilt (Predict rebuilds them in
// parallel).
type countingForge struct{ n atomic.Int64 }

func (f *countingForge) Rewrite(*session.Session, ForgeInput) (*ForgeOutput, error) {
	f.n.Add(1)
	return nil, nil
}

// TestPredictSharesRequests: adjacent drops rebuild the request between
// them once; n bounds the drops, -1 predicts every one.
func TestPredictSharesRequests(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"drops","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n")
	parent := "null"
	for i := 0; i < 6; i++ {
		u, a := "u"+itoa(i), "a"+itoa(i)
		b.WriteString(`{"type":"message","id":"` + u + `","parentId":` + parent + `,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"q` + itoa(i) + `","timestamp":1}}` + "\n")
		b.WriteString(`{"type":"message","id":"` + a + `","parentId":"` + u + `","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"a"}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":100,"totalTokens":102},"timestamp":2}}` + "\n")
		parent = `"` + a + `"`
	}
	s, err := session.Read(strings.NewReader(b.String()), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := CacheReportAt(s, s.LeafIndex())
	if len(rep.Branch.Drops) != 5 {
		t.Fatalf("drops %v", rep.Branch.Drops)
	}
	f := &countingForge{}
	all := PredictDrops(s, rep, RequestOptions{Forge: f}, -1)
	if len(all) != 5 || f.n.Load() != 6 || all[0].Use.EntryID != "a1" || all[4].Use.EntryID != "a5" {
		t.Errorf("%d predictions, %d requests rebuilt (want 6: each once)", len(all), f.n.Load())
	}
	for k := range all {
		if k > 0 && all[k].Previous.EntryID != all[k-1].Use.EntryID {
			t.Errorf("prediction %d: previous %s, want %s (in order)", k, all[k].Previous.EntryID, all[k-1].Use.EntryID)
		}
	}
	f.n.Store(0)
	recent := PredictDrops(s, rep, RequestOptions{Forge: f}, 2)
	if len(recent) != 2 || recent[0].Use.EntryID != "a4" || f.n.Load() != 3 {
		t.Errorf("recent %d, %d rebuilt", len(recent), f.n.Load())
	}
}

// TestFirstOfTurn: a request opens a turn unless its context ends with a
// tool result; System and extension messages after it do not count.
func TestFirstOfTurn(t *testing.T) {
	for _, tc := range []struct {
		roles []string
		first bool
	}{
		{[]string{"user"}, true},
		{[]string{"user", "assistant", "toolResult"}, false},
		{[]string{"user", "assistant", "toolResult", "custom", "system"}, false},
		{[]string{"user", "assistant", "toolResult", "user"}, true},
		{[]string{"user", "assistant"}, true},
		{nil, true},
	} {
		var msgs []any
		for _, r := range tc.roles {
			o := jsonv.NewObject()
			o.Set("role", r)
			msgs = append(msgs, o)
		}
		ctx := &session.Context{Entries: []session.ProjectedEntry{{Messages: msgs}}}
		if got := FirstOfTurn(ctx); got != tc.first {
			t.Errorf("%v: first of turn %v", tc.roles, got)
		}
	}
}
