package diffview

// Golden View() snapshots keep their ANSI colour, so a colour or theme
// regression shows up as a diff. To look at one, `cat` it in a terminal
// (`go test ./ui/components/diffview -run TestGolden -v` prints every
// path); to accept new output, run the tests with UPDATE_GOLDEN=1 and
// review `git diff testdata`. Mismatches print the first differing line
// plain and raw.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
)

// golden compares got with testdata/<name>.golden (UPDATE_GOLDEN=1
// rewrites it). It stays local to this package until the shared ui/uitest
// harness reads the same variable.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(name)+".golden")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden %s (UPDATE_GOLDEN=1 creates it): %v", path, err)
	}
	if string(want) == got {
		t.Logf("%s matches (cat it to view)", path)
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s differs at line %d (UPDATE_GOLDEN=1 accepts the new output):\nwant %q\ngot  %q\nwant raw %q\ngot raw  %q",
				path, i+1, ansi.Strip(w), ansi.Strip(g), w, g)
			return
		}
	}
}

var goldenThemes = []struct {
	name   string
	styles func() *themes.Styles
}{{"dark", darkStyles}, {"light", lightStyles}}

// TestGoldenLineView is the line diff matrix: unified/split × dark/light ×
// widths 40/80/160 × two heights, three lines of context, wrapping.
func TestGoldenLineView(t *testing.T) {
	for _, layout := range []Layout{Unified, Split} {
		for _, th := range goldenThemes {
			for _, w := range []int{40, 80, 160} {
				for _, h := range []int{10, 30} {
					name := fmt.Sprintf("lineview/%s_%s_%dx%d", layout, th.name, w, h)
					t.Run(name, func(t *testing.T) {
						v := lineView(promptBefore, promptAfter, layout, ContextThree, w, h)
						out := v.View(th.styles())
						assertFrame(t, strings.Split(out, "\n"), w, h)
						golden(t, name, out)
					})
				}
			}
		}
	}
}

// TestGoldenLineViewVariants covers the modes the matrix does not: other
// context modes, truncation, scrolling, NO_COLOR, added and identical
// blocks, and CRLF and final-newline changes.
func TestGoldenLineViewVariants(t *testing.T) {
	cases := []struct {
		name          string
		before, after string
		layout        Layout
		setup         func(*LineView)
		styles        func() *themes.Styles
	}{
		{"changes_only", promptBefore, promptAfter, Unified, func(v *LineView) { v.SetContext(ContextChanges) }, darkStyles},
		{"all_context", promptBefore, promptAfter, Split, func(v *LineView) { v.SetContext(ContextAll) }, darkStyles},
		{"truncated", promptBefore, promptAfter, Split, func(v *LineView) { v.SetWrap(false) }, darkStyles},
		{"scrolled", promptBefore, promptAfter, Unified, func(v *LineView) { v.ScrollBy(8) }, lightStyles},
		{"no_color", promptBefore, promptAfter, Split, nil, monoStyles},
		{"added_block", "", promptAfter, Unified, nil, darkStyles},
		{"identical", promptBefore, promptBefore, Split, nil, darkStyles},
		{"line_endings", "one\r\ntwo\r\nthree", "one\ntwo\nthree\n", Unified, nil, darkStyles},
	}
	for _, c := range cases {
		name := "lineview/variant_" + c.name + "_80x24"
		t.Run(name, func(t *testing.T) {
			v := lineView(c.before, c.after, c.layout, ContextThree, 80, 24)
			if c.setup != nil {
				c.setup(&v)
			}
			out := v.View(c.styles())
			assertFrame(t, strings.Split(out, "\n"), 80, 24)
			golden(t, name, out)
		})
	}
}

// TestGoldenBlockList is the block list at the same widths and themes,
// short and tall, with the cursor on the first change.
func TestGoldenBlockList(t *testing.T) {
	for _, th := range goldenThemes {
		for _, w := range []int{40, 80, 160} {
			for _, h := range []int{6, 16} {
				name := fmt.Sprintf("blocklist/%s_%dx%d", th.name, w, h)
				t.Run(name, func(t *testing.T) {
					l := blockList(sampleBlocks(), w, h)
					l.NextChange()
					out := l.View(th.styles())
					assertFrame(t, strings.Split(out, "\n"), w, h)
					golden(t, name, out)
				})
			}
		}
	}
	for _, c := range []struct {
		name   string
		setup  func(*BlockList)
		styles func() *themes.Styles
	}{
		{"no_color", func(l *BlockList) { l.NextChange() }, monoStyles},
		{"blurred", func(l *BlockList) { l.SetFocused(false); l.Select(6) }, darkStyles},
	} {
		name := "blocklist/variant_" + c.name + "_80x16"
		t.Run(name, func(t *testing.T) {
			l := blockList(sampleBlocks(), 80, 16)
			c.setup(&l)
			golden(t, name, l.View(c.styles()))
		})
	}
}
