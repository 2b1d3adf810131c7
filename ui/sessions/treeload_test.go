package sessions

import (
	"reflect"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// pendingLoad installs a fresh load of the rounding session in a new
// panel without running the commands applyLoaded returns: the state the
// first frame after a load draws.
func pendingLoad(t *testing.T) (*Model, *loadedSession) {
	t.Helper()
	ws, paths := testWorkspace(t)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: hsStyles(), Keys: &keys, Workspace: ws, Width: 160, Height: 48}
	m := New(com)
	m.SetSize(160, 48)
	s, err := session.OpenForDisplay(paths["rounding"])
	if err != nil {
		t.Fatal(err)
	}
	ls := buildLoaded(paths["rounding"], s)
	m.gen = 1
	m.Update(loadedMsg{gen: 1, file: paths["rounding"], ls: ls})
	return m, ls
}

// TestTreeIsBuiltAfterTheFirstFrame: a fresh load draws the timeline at
// once and says the tree is being built; the tree that arrives is the one
// a full rebuild makes, with the summaries decoded meanwhile.
func TestTreeIsBuiltAfterTheFirstFrame(t *testing.T) {
	m, ls := pendingLoad(t)
	view := m.View()
	if !m.tree.pending || !strings.Contains(view, "building the tree…") {
		t.Fatalf("the first frame should say the tree is being built:\n%s", view)
	}
	if !strings.Contains(view, "Timeline · branch → "+ls.sess.Entries[ls.leaf].ID) {
		t.Fatalf("the first frame should draw the leaf's timeline:\n%s", view)
	}
	// The timeline filled before the tree was built has its branch
	// points marked all the same: its rows are the ones a refresh makes.
	branchPoints := 0
	for k, i := range m.tl.path {
		want := newTimelineItem(ls, i)
		if got := m.tl.list.Items()[k]; got != want {
			t.Fatalf("first-frame timeline row %d is %+v, want %+v", k, got, want)
		}
		if want.mark == "⑂" {
			branchPoints++
		}
	}
	if branchPoints == 0 {
		t.Fatal("the test session's branch shows no branch point")
	}
	// A summary decoded before the tree arrives (the visible rows').
	m.Update(summaryCmd(ls, []int{0, ls.leaf})())
	m.Update(treeCmd(ls)())
	if m.tree.pending {
		t.Fatal("the built tree was not installed")
	}
	ref := newTreeView()
	ref.branchLeaf = ls.leaf
	ref.rebuild(ls)
	ref.moveTo(ls, ls.leaf)
	if got, want := m.tree.list.Items(), ref.list.Items(); !reflect.DeepEqual(got, want) {
		t.Fatalf("tree items differ from a full rebuild:\ngot  %+v\nwant %+v", got, want)
	}
	if got, want := m.tree.current(), ref.current(); got != want {
		t.Fatalf("tree cursor on %d, want %d", got, want)
	}
	if m.tree.list.Items()[ref.rowOf[ls.leaf]].text == "" {
		t.Fatal("a summary decoded before the tree arrived is missing from its row")
	}
	if strings.Contains(m.View(), "building the tree…") {
		t.Fatal("the tree pane still says it is being built")
	}
}

// TestBuiltTreeDoesNotUndoAFilterChange: a tree filter chosen while the
// tree is being built rebuilds it at once; the tree built for the default
// filter that arrives later is dropped, as is one for a replaced session.
func TestBuiltTreeDoesNotUndoAFilterChange(t *testing.T) {
	m, ls := pendingLoad(t)
	built := treeCmd(ls)()
	m.tree.cycleFilter(ls)
	want := m.tree.list.Items()
	m.Update(built)
	if m.tree.filter != treeAll || !reflect.DeepEqual(m.tree.list.Items(), want) {
		t.Fatalf("the late tree replaced the filtered one (filter %v)", m.tree.filter)
	}

	m2, ls2 := pendingLoad(t)
	other := buildLoaded(ls2.file, ls2.sess)
	m2.Update(treeBuiltMsg{ls: other, tv: built.(treeBuiltMsg).tv})
	if !m2.tree.pending {
		t.Fatal("a tree built for another load was installed")
	}
}
