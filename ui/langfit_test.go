package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/uitest"
)

// Every panel, drawn in Chinese at every width from 30 to 200 and a few
// heights, fills the terminal exactly: each line is as wide as the
// terminal, no character is cut, and every pane's frame closes: below each
// top corner the column holds a vertical border down to a bottom corner.
func TestPanelsFitEveryWidthInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	m, h := demoHarness(t)
	for tab := 1; tab <= 5; tab++ {
		h.Press(fmt.Sprint(tab))
		failed := 0
		for _, height := range []int{20, 24, 48} {
			for w := 30; w <= 200 && failed < 3; w++ {
				h.Resize(w, height)
				if msg := layoutBroken(m.View().Content, w, height); msg != "" {
					failed++
					t.Errorf("panel %d at %dx%d: %s", tab, w, height, msg)
				}
			}
		}
	}
}

// layoutBroken says what is wrong with a screen of width × height, "" when
// nothing is.
func layoutBroken(view string, width, height int) string {
	lines := strings.Split(view, "\n")
	if len(lines) != height {
		return fmt.Sprintf("%d lines", len(lines))
	}
	for i, l := range lines {
		plain := ansi.Strip(l)
		if w := ansi.StringWidth(plain); w != width {
			return fmt.Sprintf("line %d is %d cells wide: %q", i+1, w, plain)
		}
		if strings.ContainsRune(plain, '\uFFFD') {
			return fmt.Sprintf("line %d cuts a character: %q", i+1, plain)
		}
	}
	return brokenFrame(lines)
}

// brokenFrame follows every frame from its top corners down: the cells
// under ┏/╭/┌ and under the ┓/╮/┐ that closes the same line must be
// vertical borders (or tees) down to the bottom corners. A double-width
// character pushed over a border shows as a different cell there.
func brokenFrame(lines []string) string {
	grid := make([][]rune, len(lines))
	for i, l := range lines {
		for _, r := range ansi.Strip(l) {
			grid[i] = append(grid[i], r)
			if ansi.StringWidth(string(r)) == 2 {
				grid[i] = append(grid[i], 0) // the right half of a wide character
			}
		}
	}
	cell := func(i, c int) rune {
		if c < len(grid[i]) {
			return grid[i][c]
		}
		return ' '
	}
	follow := func(i, c int, side, bottom string) string {
		for j := i + 1; j < len(grid); j++ {
			switch r := cell(j, c); {
			case strings.ContainsRune(bottom, r):
				return ""
			case !strings.ContainsRune(side, r):
				return fmt.Sprintf("the border below line %d column %d breaks on line %d: %q", i+1, c+1, j+1, string(grid[j]))
			}
		}
		return fmt.Sprintf("the frame from line %d column %d never closes", i+1, c+1)
	}
	for i := range grid {
		for c := 0; c < len(grid[i]); c++ {
			if !strings.ContainsRune("┏╭┌", grid[i][c]) {
				continue
			}
			d := c + 1
			for d < len(grid[i]) && !strings.ContainsRune("┓╮┐", grid[i][d]) {
				d++
			}
			if d == len(grid[i]) {
				return fmt.Sprintf("line %d: a top corner at column %d is never closed: %q", i+1, c+1, string(grid[i]))
			}
			if msg := follow(i, c, "┃│┣├┠┝", "┗╰└"); msg != "" {
				return msg
			}
			if msg := follow(i, d, "┃│┫┤┨┥", "┛╯┘"); msg != "" {
				return msg
			}
			c = d
		}
	}
	return ""
}

// brokenFrame sees a border pushed aside by a wide character, and a frame
// that does not close; a whole frame passes.
func TestBrokenFrameSeesABrokenBorder(t *testing.T) {
	whole := []string{"┏━ 预设 ━┓╭──╮", "┃ 中文   ┃│ab│", "┗━━━━━━━━┛╰──╯"}
	if msg := brokenFrame(whole); msg != "" {
		t.Errorf("a whole frame: %s", msg)
	}
	for _, broken := range [][]string{
		{"┏━ 预设 ━┓", "┃ 中文中  ┃", "┗━━━━━━━━┛"},
		{"┏━━━━━━━━┓", "┃        ┃"},
		{"┏━━━━━━━━━", "┗━━━━━━━━┛"},
	} {
		if brokenFrame(broken) == "" {
			t.Errorf("not seen: %q", broken)
		}
	}
}
