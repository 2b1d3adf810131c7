package common_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	. "github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// fruit is a row value: everything its row shows is in it.
type fruit struct {
	name  string
	count int
}

// countingList draws "name count" with the row state and the palette name
// in the text, so a stale cached row is visible in the output.
func countingList(renders *int) *List[fruit] {
	l := NewList(func(f fruit, s RowState) string {
		*renders++
		mark := " "
		if s.Selected {
			mark = ">"
			if s.Focused {
				mark = "»"
			}
		}
		row := fmt.Sprintf("%s%s %d %s", mark, f.name, f.count, s.Styles.Palette.Name)
		return s.Styles.Text.Normal.Render(ansi.Truncate(row, s.Width, "…"))
	})
	l.SetIdentity(func(f fruit) string { return f.name })
	l.SetFilter(FilterWords(func(f fruit) string { return f.name }))
	return l
}

func fruits(names ...string) []fruit {
	out := make([]fruit, len(names))
	for i, n := range names {
		out[i] = fruit{name: n, count: 1}
	}
	return out
}

func TestListEveryEditChangesWhatIsDrawn(t *testing.T) {
	dark, light := themes.For(themes.Dark, true, false), themes.For(themes.Light, false, false)
	renders := 0
	l := countingList(&renders)
	l.SetItems(fruits("apple", "banana", "cherry", "damson"))
	st, width, focused := &dark, 30, true
	frame := func() string { return strings.Join(l.View(st, width, 4, focused), "\n") }
	edits := []struct {
		name string
		do   func()
		want string // text the new frame must show
	}{
		{"insert", func() { l.SetItems(fruits("apple", "avocado", "banana", "cherry", "damson")) }, "avocado"},
		{"delete", func() { l.SetItems(fruits("apple", "banana", "cherry", "damson")) }, "damson"},
		{"replace", func() {
			items := append([]fruit(nil), l.Items()...)
			items[1] = fruit{name: "banana", count: 7}
			l.SetItems(items)
		}, "banana 7"},
		{"reorder", func() {
			items := l.Items()
			l.SetItems([]fruit{items[1], items[0], items[2], items[3]})
		}, " banana 7 dark\n»apple"},
		{"filter", func() { l.SetQuery("an") }, "/ an"},
		{"clear filter", func() { l.SetQuery("") }, "cherry"},
		{"theme switch", func() { st = &light }, "light"},
		{"resize", func() { width = 9 }, "…"},
		{"selection move", func() { l.Move(2) }, "»cherry"},
		{"focus", func() { focused = false }, ">cherry"},
	}
	prev := frame()
	for _, e := range edits {
		e.do()
		got := frame()
		if got == prev {
			t.Fatalf("%s: the frame did not change:\n%s", e.name, ansi.Strip(got))
		}
		if !strings.Contains(ansi.Strip(got), e.want) {
			t.Fatalf("%s: the frame lacks %q:\n%s", e.name, e.want, ansi.Strip(got))
		}
		prev = got
	}
}

func TestListRendersOnlyVisibleRowsAndReusesThem(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	renders := 0
	l := countingList(&renders)
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("item%04d", i)
	}
	l.SetItems(fruits(names...))
	l.View(&st, 40, 10, true)
	if renders != 10 {
		t.Fatalf("a 10-row window of 1000 items rendered %d rows", renders)
	}
	renders = 0
	l.View(&st, 40, 10, true)
	if renders != 0 {
		t.Fatalf("an unchanged frame rendered %d rows, want all from the cache", renders)
	}
	l.SetCursor(9)
	renders = 0
	l.View(&st, 40, 10, true)
	if renders != 2 {
		t.Fatalf("moving the cursor inside the window rendered %d rows, want the old and the new cursor row", renders)
	}
	renders = 0
	l.Move(1) // scrolls by one: the old cursor row and the row coming into view
	lines := l.View(&st, 40, 10, true)
	if renders != 2 || !strings.Contains(ansi.Strip(lines[9]), "»item0010") {
		t.Fatalf("scrolling by one rendered %d rows; last row %q", renders, ansi.Strip(lines[9]))
	}
}

func TestListCursorWindowFilterAndNavigation(t *testing.T) {
	st := themes.For(themes.Dark, true, true)
	renders := 0
	l := countingList(&renders)
	l.SetItems(fruits("apple", "banana", "cherry", "damson", "elder", "fig"))
	nav := keymap.DefaultNav()
	l.View(&st, 20, 3, true)
	for _, step := range []struct {
		key  string
		want int
	}{{"j", 1}, {"G", 5}, {"pgup", 3}, {"g", 0}, {"pgdown", 2}, {"k", 1}} {
		if !l.HandleNav(uitest.Key(step.key), nav) || l.Cursor() != step.want {
			t.Fatalf("%s: cursor %d, want %d", step.key, l.Cursor(), step.want)
		}
	}
	if l.HandleNav(uitest.Key("x"), nav) {
		t.Fatal("x is not a navigation key")
	}
	l.SetCursor(4) // elder
	lines := l.View(&st, 20, 3, true)
	if got := ansi.Strip(lines[2]); !strings.Contains(got, "elder") {
		t.Fatalf("the window must follow the cursor, last row %q", got)
	}
	l.StartFilter()
	accept, cancel := keymap.DefaultSession().Open, keymap.DefaultSession().Back
	for _, k := range []string{"r", "ctrl+a", "e"} { // ctrl+a: line start
		l.FilterKey(uitest.Key(k), accept, cancel, nil)
	}
	if l.Query() != "er" || l.Len() != 2 {
		t.Fatalf("query %q shows %d items, want er → elder, cherry", l.Query(), l.Len())
	}
	if it, _ := l.Selected(); it.name != "elder" {
		t.Fatalf("the filter must keep the cursor on the same item, got %s", it.name)
	}
	if got := ansi.Strip(l.View(&st, 20, 3, true)[0]); got != "/ er" {
		t.Logf("%q", l.View(&st, 20, 3, true)[0])
		t.Fatalf("filter line %q", got)
	}
	l.FilterKey(uitest.Key("enter"), accept, cancel, nil)
	if l.Filtering() || l.Query() != "er" || l.Position() != "2/2" {
		t.Fatalf("enter keeps the query and releases the keys: filtering=%v query=%q pos=%s", l.Filtering(), l.Query(), l.Position())
	}
	l.StartFilter()
	l.FilterKey(uitest.Key("esc"), accept, cancel, nil)
	if l.Query() != "" || l.Len() != 6 {
		t.Fatal("esc clears the filter")
	}
	l.SetItems(nil)
	if _, ok := l.Selected(); ok || l.SelectedIndex() != -1 || l.Position() != "" || len(l.View(&st, 20, 3, true)) != 0 {
		t.Fatal("an empty list selects nothing and draws nothing")
	}
}

// Rows of several lines (a field with its details under it): the window
// keeps the whole cursor row in view, pages by rows and fills the height.
func TestListRowsOfSeveralLines(t *testing.T) {
	st := themes.For(themes.Dark, true, true)
	renders := 0
	l := NewList(func(f fruit, s RowState) string {
		renders++
		mark := " "
		if s.Selected {
			mark = ">"
		}
		row := mark + f.name
		for i := range f.count - 1 {
			row += fmt.Sprintf("\n  %s detail %d", f.name, i+1)
		}
		return row
	})
	l.SetItems([]fruit{{"a", 1}, {"b", 3}, {"c", 1}, {"d", 2}, {"e", 1}, {"f", 4}})
	view := func() string { return strings.Join(l.View(&st, 20, 5, true), "\n") }
	if got := view(); got != ">a\n b\n  b detail 1\n  b detail 2\n c" {
		t.Fatalf("first window:\n%s", got)
	}
	l.SetCursor(3) // d: two lines, must show whole; the window moves the least
	got := view()
	if got != " c\n>d\n  d detail 1\n e\n f" {
		t.Fatalf("the cursor row shows whole:\n%s", got)
	}
	l.SetCursor(5) // f: four lines
	got = view()
	if got != " e\n>f\n  f detail 1\n  f detail 2\n  f detail 3" {
		t.Fatalf("the last row fills the window from below:\n%s", got)
	}
	if l.PageSize() != 1 {
		t.Fatalf("two rows shown, page size %d", l.PageSize())
	}
	l.SetCursor(0)
	if got := view(); !strings.HasPrefix(got, ">a\n b") {
		t.Fatalf("back to the top:\n%s", got)
	}
	renders = 0
	l.SetItems([]fruit{{"z", 9}})
	if got := strings.Split(view(), "\n"); len(got) != 5 || got[0] != ">z" || renders != 1 {
		t.Fatalf("a row taller than the window shows its first lines (%d renders): %q", renders, got)
	}
}

func TestFitMakesExactlyTheAskedCells(t *testing.T) {
	got := Fit([]string{"short", "a line much wider than the box", "three", "four"}, 10, 3)
	if got != "short     \na line mu…\nthree     " {
		t.Fatalf("Fit = %q", got)
	}
	if Fit(nil, 4, 2) != "    \n    " || Fit([]string{"x"}, 4, 0) != "" || FitLine("x", 0) != "" {
		t.Fatal("empty and zero sizes")
	}
}

func TestTextRowsMarkTheCursorAndDimWhatCannotBeChosen(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	l := NewList(RenderTextRow)
	l.SetItems(append(TextRows([]string{"alpha", "a rather long entry"}), TextRow{Text: "off", Dim: true}))
	l.SetCursor(1)
	lines := l.View(&st, 12, 3, true)
	got := make([]string, len(lines))
	for i, line := range lines {
		got[i] = ansi.Strip(line)
	}
	if strings.Join(got, "|") != "  alpha|▸ a rather …|  off" {
		t.Fatalf("rows %q", got)
	}
	if lines[2] != st.List.Dim.Render("  off") || lines[1] != st.List.Selected.Render("▸ a rather …") {
		t.Fatalf("styles: %q %q", lines[1], lines[2])
	}
	if blurred := l.View(&st, 12, 3, false); blurred[1] != st.List.SelectedBlurred.Render("▸ a rather …") {
		t.Fatalf("an unfocused list blurs its cursor row: %q", blurred[1])
	}
}

func TestClamp(t *testing.T) {
	for _, c := range [][4]int{{5, 0, 3, 3}, {-1, 0, 3, 0}, {2, 0, 3, 2}, {4, 0, -1, 0}} {
		if got := Clamp(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Clamp(%d, %d, %d) = %d, want %d", c[0], c[1], c[2], got, c[3])
		}
	}
}

// Jumping to the end of a long list renders about a window of rows, not
// every row between the old window and the cursor (a 100 MB session's
// timeline opens at its leaf).
func TestJumpToTheEndRendersOnlyTheWindow(t *testing.T) {
	renders := 0
	l := countingList(&renders)
	items := make([]fruit, 50000)
	for i := range items {
		items[i] = fruit{name: fmt.Sprint("f", i), count: i}
	}
	l.SetItems(items)
	st := themes.For(themes.Dark, true, false)
	l.View(&st, 40, 10, true)
	renders = 0
	l.SetCursor(len(items) - 1)
	lines := l.View(&st, 40, 10, true)
	if renders > 30 {
		t.Fatalf("rendered %d rows to show 10", renders)
	}
	if len(lines) != 10 || !strings.Contains(lines[9], "f49999") {
		t.Fatalf("the window does not end at the cursor: %q", lines)
	}
}
