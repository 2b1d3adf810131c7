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
	for _, k := range []string{"e", "ctrl+a", "r"} {
		l.FilterKey(uitest.Key(k), accept, cancel)
	}
	if l.Query() != "er" || l.Len() != 2 {
		t.Fatalf("query %q shows %d items, want er → elder, cherry", l.Query(), l.Len())
	}
	if it, _ := l.Selected(); it.name != "elder" {
		t.Fatalf("the filter must keep the cursor on the same item, got %s", it.name)
	}
	if got := ansi.Strip(l.View(&st, 20, 3, true)[0]); got != "/ er▏" {
		t.Fatalf("filter line %q", got)
	}
	l.FilterKey(uitest.Key("enter"), accept, cancel)
	if l.Filtering() || l.Query() != "er" || l.Position() != "2/2" {
		t.Fatalf("enter keeps the query and releases the keys: filtering=%v query=%q pos=%s", l.Filtering(), l.Query(), l.Position())
	}
	l.StartFilter()
	l.FilterKey(uitest.Key("esc"), accept, cancel)
	if l.Query() != "" || l.Len() != 6 {
		t.Fatal("esc clears the filter")
	}
	l.SetItems(nil)
	if _, ok := l.Selected(); ok || l.SelectedIndex() != -1 || l.Position() != "" || len(l.View(&st, 20, 3, true)) != 0 {
		t.Fatal("an empty list selects nothing and draws nothing")
	}
}
