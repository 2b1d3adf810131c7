package capabilities

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// benchLibrary opens the panel at 160x48 over a project library of n
// capabilities, through the harness so every command runs.
func benchLibrary(b *testing.B, n int) *harness {
	b.Helper()
	root := b.TempDir()
	project := filepath.Join(root, "project")
	dir := filepath.Join(project, ".pi", "forge", "capabilities")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		body := fmt.Sprintf(`{"schemaVersion":1,"type":"pi-forge.capability","id":"cap-%04d","name":"Capability %d","content":"Rule %d: **keep** the change small.\n\n- run the tests\n- report findings","tools":{"add":["bash"],"remove":["write"]}}`, i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("cap-%04d.json", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys,
		Workspace: resources.Workspace{Cwd: project, AgentDir: filepath.Join(root, "agent"), ForgeDir: filepath.Join(root, "forge"),
			Trust: resources.Trust{Trusted: true}}}
	m := New(com)
	m.SetSize(160, 45)
	hs := &harness{Harness: uitest.ForPanel(b, m, com), com: com, m: m}
	hs.Run(m.Init())
	if m.list.Total() != n {
		b.Fatalf("library has %d capabilities, want %d", m.list.Total(), n)
	}
	return hs
}

// BenchmarkKeypressFrame is one library keypress and the frame after it
// over 2,000 capabilities: moving the cursor renders the next detail
// (markdown) in its command and redraws only visible rows.
func BenchmarkKeypressFrame(b *testing.B) {
	hs := benchLibrary(b, 2000)
	hs.alternate(b, "down", "up")
}

// alternate sends the two keys in turn, one per iteration, and draws the
// frame after each.
func (hs *harness) alternate(b *testing.B, first, second string) {
	keys := [2]tea.KeyPressMsg{uitest.Key(first), uitest.Key(second)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		hs.Send(keys[i%2])
		_ = hs.m.View()
	}
}

// BenchmarkFilterFrame types a filter over 2,000 capabilities.
func BenchmarkFilterFrame(b *testing.B) {
	hs := benchLibrary(b, 2000)
	hs.Press("/")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		hs.Type("9")
		_ = hs.m.View()
		hs.Press("backspace")
	}
}

// benchBigSnapshots appends n manual directives of about size characters
// each to the demo's main session and follows it at its leaf.
func benchBigSnapshots(b *testing.B, n, size int) *harness {
	b.Helper()
	hs := newHarness(b, 160, 48, true)
	file := hs.mainSession()
	line := "Keep every change small, explain it in plain words, and run the whole test suite before you report. "
	for i := 0; i < n; i++ {
		text := fmt.Sprintf("Directive %d.\n", i) + strings.Repeat(line, size/len(line))
		s, err := session.Open(file)
		if err != nil {
			b.Fatal(err)
		}
		p, err := capstate.PlanAt(s, inputsFor(hs.m.lib, hs.com.Services()), capstate.Operation{Kind: capstate.OpAdd, Arg: text}, capstate.DefaultOptions(nil))
		if err != nil || p.Refusal != nil {
			b.Fatalf("plan: %v %v", err, p.Refusal)
		}
		if _, err := session.Append(file, p.Guard, p.Entries(), session.AppendOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
	hs.Run(hs.m.reopenSession())
	if got := len(hs.m.view.state.Active()); got != n+2 {
		b.Fatalf("%d active, want %d", got, n+2)
	}
	hs.focusOn(paneSession)
	return hs
}

// BenchmarkSessionFrame moves the card cursor over 20 active snapshots of
// 100,000 characters (pi-forge's content limit) and draws the frame.
func BenchmarkSessionFrame(b *testing.B) {
	hs := benchBigSnapshots(b, 20, 99_000)
	hs.alternate(b, "down", "up")
}

// BenchmarkEditorKeypress types into the content of a capability at
// pi-forge's 100,000-character limit and draws the frame. bubbles' textarea
// renders every line it holds on each update, so the editor gives it only a
// window of lines around the cursor (windowedArea): about 25 ms on a loaded
// two-core machine, against 190 ms with the whole text in the textarea.
func BenchmarkEditorKeypress(b *testing.B) {
	hs := newHarness(b, 160, 48, true)
	line := "Keep every change small, explain it in plain words, and run the whole test suite before you report.\n"
	hs.writeCapability("huge", strings.Repeat(line, 100_000/len(line)))
	hs.selectCapability("project:huge")
	hs.Press("enter", "tab", "tab") // content
	if hs.m.edit == nil || hs.m.edit.field != fieldContent {
		b.Fatal("editor on the content")
	}
	hs.alternate(b, "x", "backspace")
}
