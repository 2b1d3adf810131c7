package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

const src = `{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"step one\nstep two"},{"type":"text","text":"Use **integer cents**."},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"src/a.ts"}}],"provider":"anthropic","model":"m","usage":{"input":1200,"output":80,"cacheRead":0,"cacheWrite":0,"totalTokens":1280,"cost":{"total":0.01}},"stopReason":"toolUse","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-29T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\u001b]52;c;aGk=\u0007"}],"isError":false,"timestamp":2}}
`

func entries(t *testing.T) []session.Entry {
	t.Helper()
	s, err := session.Read(strings.NewReader(src), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s.Entries
}

func render(t *testing.T, e *session.Entry, h Header, o Options) string {
	st := themes.For(themes.Dark, true, false)
	r := Renderer{Styles: &st, Markdown: common.NewMarkdown()}
	return ansi.Strip(strings.Join(r.Entry(e, h, o), "\n"))
}

func TestEntryCollapsesToolsAndHidesThinking(t *testing.T) {
	es := entries(t)
	o := Options{Width: 60, ExpandKey: "space", ThinkingKey: "t"}
	out := render(t, &es[0], Header{Label: "fix"}, o)
	for _, want := range []string{"assistant · a1", "[fix]", "integer cents", "→ read", "▸ thinking · 2 line(s) hidden (t to show)", "space shows the tool calls' full arguments", "tokens in 1.2k"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "step one") {
		t.Error("thinking must be hidden by default")
	}
	o.Thinking, o.Expanded = true, true
	out = render(t, &es[0], Header{}, o)
	if !strings.Contains(out, "step one") || !strings.Contains(out, `"path": "src/a.ts"`) {
		t.Errorf("thinking and the arguments show when asked:\n%s", out)
	}
	tool := render(t, &es[1], Header{}, Options{Width: 60, ExpandKey: "space"})
	if !strings.Contains(tool, "… 2 lines hidden (space to expand)") || strings.Contains(tool, "\x1b]52") {
		t.Errorf("tool output is capped at %d lines and sanitised:\n%s", OutputCap, tool)
	}
	if full := render(t, &es[1], Header{}, Options{Width: 60, Expanded: true}); strings.Contains(full, "hidden") || !strings.Contains(full, "12") {
		t.Errorf("expanded tool output shows every line:\n%s", full)
	}
}

// The Agents transcript: read-only pages of several entries, the copied
// parent history labelled, no thinking at all and no key hints.
func TestPageForSubagentTranscripts(t *testing.T) {
	es := entries(t)
	st := themes.For(themes.Light, false, false)
	r := Renderer{Styles: &st, Markdown: common.NewMarkdown()}
	lines := r.Page([]Item{{Entry: &es[0], Header: Header{Note: "copied from parent"}}, {Entry: &es[1]}},
		Options{Width: 50, OmitThinking: true})
	out := ansi.Strip(strings.Join(lines, "\n"))
	if !strings.Contains(out, "copied from parent") || strings.Contains(out, "thinking") || strings.Contains(out, "to expand") {
		t.Fatalf("page:\n%s", out)
	}
	if !strings.Contains(out, "\n\ntoolResult · a2") {
		t.Fatalf("entries are separated by a blank line:\n%s", out)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 50 {
			t.Fatalf("line wider than the page: %q", ansi.Strip(l))
		}
	}
}

func TestTextIsTheCopyableSanitisedText(t *testing.T) {
	es := entries(t)
	if got := Text(&es[0]); !strings.Contains(got, "Use **integer cents**.") || !strings.Contains(got, `read {`) {
		t.Fatalf("copy text %q", got)
	}
	if got := Text(&es[1]); strings.Contains(got, "\x1b") {
		t.Fatalf("copy text keeps an escape: %q", got)
	}
}
