package subagent

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/forgebench/forgebench/session"
)

// activitySession writes an agent session with one of every kind of work.
func activitySession(t *testing.T, extraRuns int) *session.Session {
	t.Helper()
	s := newJSONL(t.TempDir()+"/a.jsonl", "01a2219b-0000-7000-8000-0000000000a1", "/elsewhere/root.jsonl", time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC))
	s.message(map[string]any{"role": "user", "content": "copied from the parent"})
	s.custom(DescriptorCustomType, map[string]any{"version": 5, "path": "/root/a"})
	s.message(map[string]any{"role": "user", "content": []any{text(runPrompt)}})
	s.message(map[string]any{"role": "custom", "customType": MessageCustomType, "display": true,
		"content": "[Agent task: /root → /root/a]\nFix the bug.\n\n[Agent message: /root/b → /root/a]\nFYI: tests are slow."})
	s.message(assistant([]any{
		map[string]any{"type": "thinking", "thinking": "SECRET THOUGHT"},
		text("Looking.\x1b]52;c;ZXZpbA==\x07"),
		toolCall("1", "bash", map[string]any{"command": "go test ./...\necho \x1b[31mdone\x1b[0m"}),
		toolCall("2", "edit", map[string]any{"path": "a.go", "oldText": "x := 1", "newText": "x := 2"}),
		toolCall("3", "write", map[string]any{"path": "b.go", "content": strings.Repeat("line\n", 20)}),
		toolCall("4", "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: c.go\n"}),
		toolCall("5", "grep", map[string]any{"pattern": "TODO"}),
	}, "toolUse", usageOf(10, 1, 0, 0.1)))
	s.message(map[string]any{"role": "toolResult", "toolCallId": "1", "toolName": "bash", "isError": true,
		"content": []any{text(strings.Repeat("é", 300))}})
	s.message(map[string]any{"role": "bashExecution", "command": "ls", "output": "a\nb", "exitCode": 0})
	for i := 0; i < extraRuns; i++ {
		s.message(assistant([]any{text(fmt.Sprintf("answer %d", i))}, "stop", usageOf(1, 1, 0, 0.01)))
	}
	s.message(assistant([]any{}, "error", usageOf(1, 0, 0, 0)))
	s.write(t)
	sess, err := session.Open(s.path)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func TestActivity(t *testing.T) {
	items := Activity(activitySession(t, 0), 0)
	var kinds []string
	for _, it := range items {
		kinds = append(kinds, it.Kind+":"+it.Title)
		if strings.Contains(it.Preview, "SECRET") || strings.Contains(it.Preview, "\x1b") || strings.Contains(it.Title, "\x1b") {
			t.Errorf("thinking or escape sequence leaked: %q %q", it.Title, it.Preview)
		}
		if n := utf8.RuneCountInString(it.Preview); n > ActivityPreviewRunes || strings.Count(it.Preview, "\n") >= ActivityPreviewLines {
			t.Errorf("preview of %s too long: %d runes, %d lines", it.Title, n, strings.Count(it.Preview, "\n")+1)
		}
	}
	want := []string{
		"inbox:task from /root", "inbox:message from /root/b",
		"answer:answer", "command:$ go test ./... …", "edit:edit a.go", "write:write b.go", "patch:patch", "tool:grep",
		"output:bash (error)", "command:$ ls", "answer:error",
	}
	if strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Errorf("activity\n%v\nwant\n%v", kinds, want)
	}
	byTitle := map[string]ActivityItem{}
	for _, it := range items {
		byTitle[it.Title] = it
	}
	if it := byTitle["edit a.go"]; it.Preview != "- x := 1\n+ x := 2" {
		t.Errorf("edit preview %q", it.Preview)
	}
	if it := byTitle["write b.go"]; !it.Truncated || strings.Count(it.Preview, "\n") != ActivityPreviewLines-1 {
		t.Errorf("write preview not cut at %d lines: %q", ActivityPreviewLines, it.Preview)
	}
	if it := byTitle["bash (error)"]; !it.Error || !it.Truncated || utf8.RuneCountInString(it.Preview) != ActivityPreviewRunes {
		t.Errorf("tool output preview: error %v truncated %v runes %d", it.Error, it.Truncated, utf8.RuneCountInString(it.Preview))
	}
	if items[0].Title != "task from /root" || items[0].Preview != "Fix the bug." {
		t.Errorf("first item %+v (copied history must not appear)", items[0])
	}
}

func TestActivityKeepsTheLastFifty(t *testing.T) {
	items := Activity(activitySession(t, 80), 0)
	if len(items) != ActivityItems {
		t.Fatalf("%d items", len(items))
	}
	if items[len(items)-1].Title != "error" || items[len(items)-2].Preview != "answer 79" || items[0].Preview != "answer 31" {
		t.Errorf("window: first %q, last two %q %q", items[0].Preview, items[len(items)-2].Preview, items[len(items)-1].Title)
	}
}

func TestTranscriptPagesAndRendering(t *testing.T) {
	s := activitySession(t, 120)
	tr := NewTranscript(s, 50)
	total := len(s.PathTo(s.LeafIndex()))
	if len(tr.Items) != total || tr.Inherited != 1 || tr.Pages() != (total+49)/50 {
		t.Fatalf("items %d inherited %d pages %d", len(tr.Items), tr.Inherited, tr.Pages())
	}
	if p := tr.Page(0); len(p) != 50 || p[len(p)-1].Entry != tr.Items[total-1].Entry {
		t.Error("page 0 is not the newest 50 entries")
	}
	last := tr.Page(tr.Pages() - 1)
	if !last[0].Inherited || last[1].Inherited || tr.Page(tr.Pages()) != nil {
		t.Error("the oldest page does not start with the copied entry")
	}
	if n := len(tr.Newest(2)); n != 100 {
		t.Errorf("Newest(2) has %d entries", n)
	}
	var buf bytes.Buffer
	if err := RenderText(&buf, last, RenderOptions{ToolLines: 3}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"┄┄ copied parent history", "┄┄ this agent's own work ┄┄", "→ bash", "→ write",
		"── 10:00:05 · assistant · anthropic/claude-sonnet-4-5 ──", "toolResult · bash (error)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendering lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SECRET") || strings.Contains(out, "\x1b") {
		t.Errorf("thinking or escapes in the transcript:\n%s", out)
	}
	// Tool output longer than the cap is cut and the rest counted.
	buf.Reset()
	s2 := activitySession(t, 0)
	tr2 := NewTranscript(s2, 50)
	tr2.Items[len(tr2.Items)-3].Entry = writeLongResult(t)
	_ = RenderText(&buf, tr2.Items[len(tr2.Items)-3:len(tr2.Items)-2], RenderOptions{ToolLines: 3})
	if !strings.Contains(buf.String(), "… 7 more lines") {
		t.Errorf("truncation not marked:\n%s", buf.String())
	}
	buf.Reset()
	_ = RenderText(&buf, tr2.Items[len(tr2.Items)-3:len(tr2.Items)-2], RenderOptions{ToolLines: 3, Expand: true})
	if strings.Contains(buf.String(), "more lines") || strings.Count(buf.String(), "row") != 10 {
		t.Errorf("expanded output:\n%s", buf.String())
	}
}

func writeLongResult(t *testing.T) *session.Entry {
	line := `{"type":"message","id":"x1","parentId":null,"timestamp":"2026-11-28T10:00:00.000Z","message":{"role":"toolResult","toolName":"read","content":[{"type":"text","text":"` +
		strings.Repeat(`row\n`, 10) + `"}]}}`
	e, err := session.ParseEntryLine([]byte(line), 1)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestParseEnvelope(t *testing.T) {
	msgs := ParseEnvelope("[Agent task: /root → /root/a]\nDo it.\n\nPlease.\n\n[Agent completion: /root/a/b → /root/a]\nDone")
	if len(msgs) != 2 || msgs[0].Text != "Do it.\n\nPlease." || msgs[1].Kind != KindCompletion || msgs[1].From != "/root/a/b" || msgs[1].Text != "Done" {
		t.Errorf("%+v", msgs)
	}
	if len(ParseEnvelope("no header")) != 0 {
		t.Error("text without a header parsed as messages")
	}
}

func FuzzParseEnvelope(f *testing.F) {
	f.Add("[Agent task: /root → /root/a]\nx")
	f.Add("[Agent message: a → b]\n\n[Agent task: c → d]\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ParseEnvelope(s) {
			if !strings.Contains(s, m.Text) {
				t.Fatalf("text %q not in the input", m.Text)
			}
		}
	})
}

func FuzzPreview(f *testing.F) {
	f.Add("a\nb\nc\nd\ne", 4, 240)
	f.Add("\x1b[31mred", 1, 2)
	f.Fuzz(func(t *testing.T, s string, lines, runes int) {
		lines, runes = 1+abs(lines)%8, 2+abs(runes)%300
		out, _ := Preview(s, lines, runes)
		if utf8.RuneCountInString(out) > runes || strings.Count(out, "\n") >= lines || strings.ContainsRune(out, '\x1b') {
			t.Fatalf("Preview(%q, %d, %d) = %q", s, lines, runes, out)
		}
	})
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
