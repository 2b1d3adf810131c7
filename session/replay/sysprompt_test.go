package replay

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

func promptAt(t *testing.T, s *session.Session, id string) *SystemPrompt {
	t.Helper()
	i, ok := s.IndexOf(id)
	if !ok {
		t.Fatalf("no entry %s", id)
	}
	p, err := SystemPromptAt(s, i)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sectionPairs(p *SystemPrompt) []string {
	var out []string
	for _, s := range p.Sections {
		out = append(out, s.Name+"="+s.Value)
	}
	return out
}

func toolDescriptions(p *SystemPrompt) []string {
	var out []string
	for _, tv := range p.Tools {
		o := tv.(*jsonv.Object)
		d, _ := o.Get("description")
		out = append(out, toolName(o)+":"+jsonv.ToString(d))
	}
	return out
}

func presented(pr Presentation) []string {
	var out []string
	for _, s := range pr.System {
		lead := "update"
		if s.Leading {
			lead = "lead"
		}
		out = append(out, itoa(s.Position)+" "+lead+" "+s.Text)
	}
	return out
}

func modelWithMidConvo(flag bool) *catalog.Model {
	compat := jsonv.NewObject()
	compat.Set("supportsMidConvoSystemMessages", flag)
	return &catalog.Model{Provider: "test", ID: "m", Compat: compat}
}

// Expected values worked out by hand from testdata/sysprompt/replay.jsonl:
// JS object order puts the integer-like section "10" first, a deleted
// section re-added goes to the end, a re-declared tool keeps its place.
func TestSystemPromptReplay(t *testing.T) {
	s, err := session.Open(filepath.Join("testdata", "sysprompt", "replay.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if p := promptAt(t, s, "s1"); p.Source != SystemPromptNone || p.Text != "" || p.Message() != nil {
		t.Errorf("before any system message: %+v", p)
	}
	first := promptAt(t, s, "s3")
	if first.Text != "Base prompt.\n\nten\n\nP\n\nR1" || !reflect.DeepEqual(first.Origins, []int{1}) {
		t.Errorf("at s3: text %q origins %v", first.Text, first.Origins)
	}
	p := promptAt(t, s, "s6")
	if p.Source != SystemPromptFromSession || p.Content != "Base prompt.\n\nExtra A\nExtra B" {
		t.Errorf("content %q source %q", p.Content, p.Source)
	}
	if got := sectionPairs(p); !reflect.DeepEqual(got, []string{"10=ten", "preamble=P2", "skills=S", "rules=R2"}) {
		t.Errorf("sections %q", got)
	}
	if got := toolDescriptions(p); !reflect.DeepEqual(got, []string{"bash:b2", "grep:g1"}) {
		t.Errorf("tools %q", got)
	}
	if want := "Base prompt.\n\nExtra A\nExtra B\n\nten\n\nP2\n\nS\n\nR2"; p.Text != want {
		t.Errorf("text %q", p.Text)
	}
	if p.Timestamp != 1000.0 || !reflect.DeepEqual(p.Origins, []int{1, 3, 4}) || p.Provider != "anthropic" || p.ModelID != "claude-sonnet-4-5" {
		t.Errorf("timestamp %v origins %v model %s/%s", p.Timestamp, p.Origins, p.Provider, p.ModelID)
	}
	native := p.Presentation(modelWithMidConvo(true))
	wantNative := []string{
		"0 lead Base prompt.\n\nten\n\nP\n\nR1",
		"2 update Extra A\nExtra B\n\nRemoved system prompt section \"rules\".\n\nUpdated system prompt section \"skills\":\n\nS",
		"3 update Updated system prompt section \"rules\":\n\nR2\n\nUpdated system prompt section \"preamble\":\n\nP2",
	}
	if !native.Native || len(native.Messages) != 5 || !reflect.DeepEqual(presented(native), wantNative) {
		t.Errorf("native: %d messages %q", len(native.Messages), presented(native))
	}
	for _, m := range []*catalog.Model{nil, modelWithMidConvo(false)} {
		col := p.Presentation(m)
		if col.Native || len(col.Messages) != 3 || !reflect.DeepEqual(presented(col), []string{"0 lead " + p.Text}) {
			t.Errorf("collapsed: %d messages %q", len(col.Messages), presented(col))
		}
		if col.Messages[0] != p.Message() {
			t.Error("collapsed transcript must lead with the replayed message")
		}
	}
	// the catalog decides: claude-sonnet-4-5 folds later system messages
	if pr := p.PresentationIn(catalog.Default()); pr.Native {
		t.Error("claude-sonnet-4-5 must collapse")
	}
	want := `{"role":"system","content":"Base prompt.\n\nExtra A\nExtra B","sections":{"10":"ten","preamble":"P2","skills":"S","rules":"R2"},"toolsAdded":[` +
		`{"name":"bash","description":"b2","parameters":{"type":"object","properties":{}}},{"name":"grep","description":"g1","parameters":{"type":"object","properties":{}}}],"timestamp":1000}`
	if got := jsonv.Stringify(p.Message()); got != want {
		t.Errorf("message:\n got %s\nwant %s", got, want)
	}
	if _, err := SystemPromptAt(s, len(s.Entries)); !errors.Is(err, session.ErrUnknownEntry) {
		t.Errorf("out of range: %v", err)
	}
}

// A compaction's systemMessage replaces every system message before it;
// system messages in the kept range are not replayed twice; a compaction
// without systemMessage (as older Pi wrote) leaves no prompt behind.
func TestSystemPromptCompaction(t *testing.T) {
	s, err := session.Open(filepath.Join("testdata", "sysprompt", "compaction.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	before := promptAt(t, s, "c4")
	if before.Content != "Once." || !reflect.DeepEqual(sectionPairs(before), []string{"a=A2"}) || before.Timestamp != 10.0 || !reflect.DeepEqual(before.Origins, []int{0, 2}) {
		t.Errorf("before compaction: %+v", before)
	}
	p := promptAt(t, s, "c7")
	if p.Content != "Once." || p.Text != "Once.\n\nA2\n\nB" || p.Timestamp != 5000.0 || !reflect.DeepEqual(p.Origins, []int{4, 5}) {
		t.Errorf("after compaction: content %q text %q ts %v origins %v", p.Content, p.Text, p.Timestamp, p.Origins)
	}
	if got := p.ToolNames(); !reflect.DeepEqual(got, []string{"read"}) {
		t.Errorf("tools %v", got)
	}
	pr := p.PresentationIn(catalog.Default()) // openai/gpt-5.4 accepts mid-conversation system messages
	if want := []string{"0 lead Once.\n\nA2", "4 update Updated system prompt section \"b\":\n\nB"}; !pr.Native || !reflect.DeepEqual(presented(pr), want) {
		t.Errorf("presentation %v %q", pr.Native, presented(pr))
	}
	if after := promptAt(t, s, "c9"); after.Source != SystemPromptNone || after.Text != "" || len(after.Tools) != 0 {
		t.Errorf("after a compaction without systemMessage: %+v", after)
	}
}

// TestSystemPromptGeneratedFixture checks the Pi 1.6.0 generated session;
// the expected values were read off the file by hand.
func TestSystemPromptGeneratedFixture(t *testing.T) {
	path := fixtures.Path(t, mainFile)
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := promptAt(t, s, "9d674285"); p.Source != SystemPromptNone {
		t.Errorf("before the system message: %q", p.Source)
	}
	names := []string{"preamble", "tools", "rules", "docs", "project_context", "cwd"}
	lens := []int{126, 274, 589, 1212, 221, 40}
	first := promptAt(t, s, "c71ae143")
	for i, sec := range first.Sections {
		if i >= len(names) || sec.Name != names[i] || len(sec.Value) != lens[i] {
			t.Errorf("section %d = %s (%d bytes)", i, sec.Name, len(sec.Value))
		}
	}
	if len(first.Sections) != 6 || len(first.Text) != 2472 || first.Content != "" || first.Timestamp != 1795992459371.0 {
		t.Errorf("first prompt: %d sections, %d bytes, ts %v", len(first.Sections), len(first.Text), first.Timestamp)
	}
	if !strings.HasPrefix(first.Text, "You are a coding assistant running inside pi, a coding agent harness.") ||
		!strings.HasSuffix(first.Text, "</project_context>\n\n<cwd>\n/home/dev/projects/demo-app\n</cwd>") {
		t.Errorf("first prompt text: %.80q … %.80q", first.Text, first.Text[len(first.Text)-80:])
	}
	if got := first.ToolNames(); !reflect.DeepEqual(got, []string{"read", "bash", "edit", "write"}) {
		t.Errorf("tools %v", got)
	}
	if pr := first.PresentationIn(catalog.Default()); pr.Native || len(pr.System) != 1 {
		t.Errorf("anthropic turn: native %v, %d system messages", pr.Native, len(pr.System))
	}
	// After the compaction (03f3c905) the prompt comes from its systemMessage,
	// then 637362f6 patches "rules" (adds "- Prefer small diffs").
	last := promptAt(t, s, "e4d9384c")
	compIdx, _ := s.IndexOf("03f3c905")
	patchIdx, _ := s.IndexOf("637362f6")
	if !reflect.DeepEqual(last.Origins, []int{compIdx, patchIdx}) || last.Timestamp != 1795992459374.0 {
		t.Errorf("origins %v ts %v", last.Origins, last.Timestamp)
	}
	if len(last.Text) != 2493 || !strings.Contains(last.Text, "- Use write only for new files or complete rewrites.\n- Prefer small diffs\n- Be concise in your responses") {
		t.Errorf("patched rules missing (%d bytes)", len(last.Text))
	}
	if len(last.Sections) != 6 || last.Sections[2].Name != "rules" || len(last.Sections[2].Value) != 610 {
		t.Errorf("rules must be patched in place: %v", sectionPairs(last)[2][:20])
	}
	pr := last.PresentationIn(catalog.Default())
	if !pr.Native || len(pr.Messages) != 10 || len(pr.System) != 2 || pr.System[1].Position != 7 ||
		!strings.HasPrefix(pr.System[1].Text, "Updated system prompt section \"rules\":\n\n<rules>\n- Use bash") {
		t.Errorf("gpt-5.4 presentation: native %v, %d messages, %+v", pr.Native, len(pr.Messages), pr.System)
	}
	col := last.Presentation(nil)
	if len(col.Messages) != 9 || len(col.System) != 1 || col.System[0].Text != last.Text {
		t.Errorf("collapsed: %d messages", len(col.Messages))
	}
}

func FuzzSystemPromptReplay(f *testing.F) {
	f.Add(`{"role":"system","content":"a","sections":{"x":"1","2":null},"toolsAdded":[{"name":"t"}],"timestamp":1}`, `{"role":"system","content":[{"type":"text","text":"b"}],"sections":{"x":null},"toolsRemoved":[{"name":"t"}]}`)
	f.Add(`{"role":"system"}`, `{"role":"system","content":null,"sections":[],"toolsAdded":{}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		var systems []*jsonv.Object
		for _, text := range []string{a, b} {
			v, err := jsonv.Parse([]byte(text))
			if err != nil {
				return
			}
			if o, ok := v.(*jsonv.Object); ok {
				systems = append(systems, o)
			}
		}
		m := replaySystemMessages(systems)
		if m == nil {
			return
		}
		_ = systemMessageText(m)
		_ = systemMessageUpdateText(m)
		if c, _ := m.Get("content"); c == nil {
			t.Fatal("replayed content must be a string")
		}
	})
}

func BenchmarkSystemPromptAt100MB(b *testing.B) {
	s := loadBenchSession(b)
	leaf := s.LeafIndex()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// gen's compactions carry no systemMessage, so the leaf has no prompt;
		// this measures the context build and replay.
		if _, err := SystemPromptAt(s, leaf); err != nil {
			b.Fatal(err)
		}
	}
}

// pi-ai's getCurrentSystemMessage takes the timestamp with `timestamp ??=`:
// a null timestamp still counts as "seen" when no later system message
// replaces it, so the replay exists (timestamp 0) even without tools.
func TestSystemPromptNullTimestamp(t *testing.T) {
	const head = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n"
	s := mustRead(t, head+
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"system","content":"base","timestamp":null}}`+"\n"+
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"system","content":"more"}}`+"\n")
	p := promptAt(t, s, "a")
	if p.Source != SystemPromptFromSession || p.Text != "base" {
		t.Fatalf("null timestamp: source %q text %q, want the replay of \"base\"", p.Source, p.Text)
	}
	if ts, _ := p.Message().Get("timestamp"); ts != 0.0 {
		t.Errorf("timestamp = %v, want 0", ts)
	}
	// A later message without a timestamp resets it to undefined: no replay.
	if p := promptAt(t, s, "b"); p.Source != SystemPromptNone || p.Message() != nil {
		t.Errorf("undefined timestamp after null: source %q message %v", p.Source, p.Message())
	}
}

// Section values are kept as stored; getSystemMessageText drops parts whose
// .length is not positive, so numbers, booleans and objects vanish from the
// prompt text while arrays render through String().
func TestSystemPromptNonStringSections(t *testing.T) {
	const head = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n"
	s := mustRead(t, head+
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"system","content":"base","sections":{"n":5,"b":true,"o":{},"arr":["x","y"],"s":"text"},"timestamp":1}}`+"\n")
	p := promptAt(t, s, "a")
	if want := "base\n\nx,y\n\ntext"; p.Text != want {
		t.Errorf("text = %q, want %q", p.Text, want)
	}
	sec, _ := p.Message().Get("sections")
	if n, _ := sec.(*jsonv.Object).Get("n"); n != 5.0 {
		t.Errorf("replayed section n = %#v, want the number 5", n)
	}
}
