package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/uitest"
)

// keepOffProfile is a profile that keeps the test session's Preset (off
// at its leaf) and changes only the thinking level.
const keepOffProfile = `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"keep-off","model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"high","promptStack":null}`

func withKeepOffProfile(t testing.TB, cwd string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(cwd, ".pi", "forge", "agent-profiles", "keep-off.json"), []byte(keepOffProfile), 0o644); err != nil {
		t.Fatal(err)
	}
}

// + on a profile that switches the Preset says pi-forge's prompt-cache
// notice before the entries, as /profile use shows it after applying
// (pi-forge 0.5.4): the test session's leaf has no Preset active, so
// nothing compiled with one can be compared. A profile that keeps the
// Preset and changes the thinking level says nothing about the cache;
// neither does reviewer once alpha is in force.
func TestUseProfileShowsPiForgesCacheNotice(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, withKeepOffProfile)
	ownSession(t, hs, "")
	hs.openProfile("reviewer")
	hs.Press("+")
	text := dialogText(hs)
	notice := "pi-forge: " + compile.CacheEstimateUnavailable
	at, entries := strings.Index(text, notice), strings.Index(text, "entries will be appended")
	if at < 0 || entries < at {
		t.Fatalf("the notice is not said before the entries:\n%s", text)
	}
	hs.Press("n")
	hs.openProfile("keep-off")
	hs.Press("+")
	text = dialogText(hs)
	if !strings.Contains(text, `thinking_level_change {"thinkingLevel":"high"}`) || strings.Contains(text, "Switching") || strings.Contains(text, "prompt cache") {
		t.Fatalf("a profile keeping the Preset:\n%s", text)
	}
	hs.Press("n")
	hs.openProfile("reviewer")
	hs.Press("+", "y")
	leaf := lastEntryID(t, hs.sessFile)
	hs.com.Selection.EntryID = leaf
	hs.Press("+")
	if text := dialogText(hs); !strings.Contains(text, "Apply profile project:reviewer?") || strings.Contains(text, "Switching") {
		t.Fatalf("reviewer with alpha in force:\n%s", text)
	}
}

// In Chinese the dialog's chrome is translated and pi-forge's notice
// stays in its own (English) words, as every pi-forge message does.
func TestUseProfileCacheNoticeStaysEnglish(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	hs.openProfile("reviewer")
	hs.Press("+")
	text := dialogText(hs)
	if !strings.Contains(text, "应用配置档 project:reviewer？") || !strings.Contains(text, "pi-forge: "+compile.CacheEstimateUnavailable) {
		t.Fatalf("the Chinese dialog:\n%s", text)
	}
}

// lastEntryID is the id of the session file's last entry.
func lastEntryID(t *testing.T, file string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(readFile(t, file)), "\n")
	last := lines[len(lines)-1]
	i := strings.Index(last, `"id":"`)
	if i < 0 {
		t.Fatalf("no id in %s", last)
	}
	rest := last[i+len(`"id":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}
