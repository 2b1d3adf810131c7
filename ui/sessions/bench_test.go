package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
	"github.com/forgebench/forgebench/ui/uitest"
)

// writeBigSession writes a linear session of n entries cycling through
// user, assistant (with usage and a tool call) and toolResult messages.
func writeBigSession(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"bench","timestamp":"2026-11-27T10:00:00.000Z","cwd":"/tmp/bench"}` + "\n")
	parent := "null"
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%08x", i+1)
		ts := fmt.Sprintf("2026-11-27T%02d:%02d:%02d.000Z", 10+i/3600%10, i/60%60, i%60)
		var msg string
		switch i % 3 {
		case 0:
			msg = fmt.Sprintf(`{"role":"user","content":"Question %d: why does the invoice total drift by a cent?","timestamp":1}`, i)
		case 1:
			msg = fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"Answer %d: **floats**. Reading the file."},{"type":"toolCall","id":"c%d","name":"read","arguments":{"path":"src/invoice.ts"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1200,"output":80,"cacheRead":4000,"cacheWrite":0,"totalTokens":5280,"cost":{"input":0.0036,"output":0.0012,"cacheRead":0.0012,"cacheWrite":0,"total":0.006}},"stopReason":"toolUse","timestamp":1}`, i, i)
		default:
			msg = fmt.Sprintf(`{"role":"toolResult","toolCallId":"c%d","toolName":"read","content":[{"type":"text","text":"line 1\nline 2\nline 3"}],"isError":false,"timestamp":1}`, i-1)
		}
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":%s}`+"\n", id, parent, ts, msg)
		parent = `"` + id + `"`
	}
	path := filepath.Join(tb.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// benchSession opens a 5,000-entry session in the panel at 160x48 with
// the timeline focused, through the harness so every command runs.
func benchSession(b testing.TB) *harness {
	path := writeBigSession(b, 5000)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys,
		Workspace: resources.Workspace{Cwd: "/tmp/bench"}}
	m := New(com)
	m.SetSize(160, 45)
	hs := &harness{Harness: uitest.ForPanel(b, m, com), com: com, m: m}
	m.gen = 1
	hs.Send(openSession(1, path))
	if m.ls == nil || len(m.ls.rows) != 5000 {
		b.Fatal("session did not load")
	}
	m.focus = paneTimeline
	m.tl.list.SetCursor(0)
	m.View()
	return hs
}

// BenchmarkTimelineScroll measures one keypress frame on a 5,000-entry
// session as the user meets it: Update(down), the commands it returns
// (the summaries of rows coming into view and the detail of the new
// entry: decoding plus markdown) and View() of the whole panel.
func BenchmarkTimelineScroll(b *testing.B) {
	hs := benchSession(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if hs.m.tl.atEnd() {
			hs.m.tl.list.SetCursor(0)
		}
		hs.Press("down")
		_ = hs.m.View()
	}
}

// BenchmarkFirstDetail measures rendering an assistant entry's detail
// with a markdown renderer set that has never rendered at that width and
// theme (cold: glamour builds its renderer) and with one warmed by the
// command the panel runs after a resize or a theme switch (warm).
func BenchmarkFirstDetail(b *testing.B) {
	hs := benchSession(b)
	m := hs.m
	idx := 1 // an assistant message with markdown and a tool call
	st := m.com.Styles
	_, width := m.detailSize()
	o := transcript.Options{Width: width, ExpandKey: "space", ThinkingKey: "t"}
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				md := common.NewMarkdown()
				if warm {
					md.Warm(&st, width)
				}
				r := transcript.Renderer{Styles: &st, Markdown: md}
				b.StartTimer()
				if len(r.Entry(&m.ls.sess.Entries[idx], transcript.Header{}, o)) == 0 {
					b.Fatal("no lines")
				}
			}
		})
	}
}

func TestTimelineScrollFrameBudget(t *testing.T) {
	uitest.RequireTiming(t)
	res := testing.Benchmark(BenchmarkTimelineScroll)
	if per := res.NsPerOp(); per > 16_000_000 {
		t.Fatalf("a timeline keypress frame takes %d ns, budget 16 ms", per)
	}
}

// BenchmarkTimelineScrollAtDepth is BenchmarkTimelineScroll near the end
// of the 5,000-entry branch, where announcing the selection walks the
// longest path for the Preset the branch records (ActivePresetAt).
func BenchmarkTimelineScrollAtDepth(b *testing.B) {
	hs := benchSession(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%100 == 0 {
			hs.m.tl.list.SetCursor(hs.m.tl.list.Len() - 1)
		}
		hs.Press("up")
		_ = hs.m.View()
	}
}

// TestSearchKeystrokeDoesNotAllocatePerEntry: each key typed into the
// session search matches every entry again inside Update; the text the
// words match is built once per entry, not on every key (which cost an
// allocation per entry: 80 ms a key at 100,000 entries).
func TestSearchKeystrokeDoesNotAllocatePerEntry(t *testing.T) {
	hs := benchSession(t)
	m := hs.m
	m.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	i := 0
	allocs := testing.AllocsPerRun(20, func() {
		k := tea.KeyPressMsg{Code: 'q', Text: "q"}
		if i++; i%2 == 0 {
			k = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		m.Update(k)
	})
	if allocs > 1000 {
		t.Fatalf("%.0f allocations a keystroke over 5,000 entries", allocs)
	}
}

// BenchmarkSearchKeystroke measures Update for one key typed into the
// session search of a 5,000-entry session (its text matching runs in a
// command, not measured here).
func BenchmarkSearchKeystroke(b *testing.B) {
	hs := benchSession(b)
	m := hs.m
	m.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := tea.KeyPressMsg{Code: 'q', Text: "q"}
		if i%2 == 1 {
			k = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		m.Update(k)
	}
}

// BenchmarkContextViewRebuild measures the Context view's rebuild at the
// leaf of the 5,000-entry session (the request as sent and, when
// something rewrote it, as Pi built it): the work one rest of the cursor
// costs, in a command.
func BenchmarkContextViewRebuild(b *testing.B) {
	hs := benchSession(b)
	m := hs.m
	k := m.contextKeyFor(len(m.ls.rows) - 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := buildSent(k, m.com.Services()); res.err != nil || len(res.side(false).messages) == 0 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkContextViewKeyInBurst measures one key of a burst with the
// Context view open on the 5,000-entry session: Update and View only, as
// while keys keep arriving (the rebuild waits for the cursor to rest).
func BenchmarkContextViewKeyInBurst(b *testing.B) {
	hs := benchSession(b)
	m := hs.m
	m.tl.list.SetCursor(len(m.ls.rows) - 1)
	hs.Press("c")
	m.focus = paneTimeline
	up, down := uitest.Key("up"), uitest.Key("down")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		key := up
		if i/100%2 == 1 {
			key = down
		}
		m.Update(key)
		_ = m.View()
		hs.Timers = hs.Timers[:0] // no time passes inside a burst
	}
}
