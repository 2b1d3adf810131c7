package capabilities

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
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
	down, up := uitest.Key("down"), uitest.Key("up")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			hs.Send(down)
		} else {
			hs.Send(up)
		}
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
