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

// BenchmarkTimelineScroll measures one keypress frame on a 5,000-entry
// session: Update(down) plus View() of the whole 160x48 panel.
func BenchmarkTimelineScroll(b *testing.B) {
	path := writeBigSession(b, 5000)
	keys := keymap.DefaultGlobal()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys,
		Workspace: resources.Workspace{Cwd: "/tmp/bench"}}
	m := New(com)
	m.SetSize(160, 45)
	m.gen = 1
	m.handle(openSession(1, path))
	if m.ls == nil || len(m.ls.rows) != 5000 {
		b.Fatal("session did not load")
	}
	m.focus = paneTimeline
	m.tl.cursor = 0
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.tl.cursor >= len(m.tl.shown)-1 {
			m.tl.cursor = 0
		}
		m.Update(down)
		_ = m.View()
	}
}

func TestTimelineScrollFrameBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	res := testing.Benchmark(BenchmarkTimelineScroll)
	if per := res.NsPerOp(); per > 16_000_000 {
		t.Fatalf("a timeline keypress frame takes %d ns, budget 16 ms", per)
	}
}
