package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/ui/common"
)

// without returns a copy of list without element i; list is never changed
// (it may belong to the shared, immutable draft).
func without[T any](list []T, i int) []T {
	out := append([]T(nil), list[:i]...)
	return append(out, list[i+1:]...)
}

// swapped returns a copy of list with elements i and j exchanged.
func swapped[T any](list []T, i, j int) []T {
	out := append([]T(nil), list...)
	out[i], out[j] = out[j], out[i]
	return out
}

// moveStep is -1 for the move-up key and +1 for move-down.
func moveStep(kp tea.KeyPressMsg, k *keymap.Forms) int {
	if key.Matches(kp, k.MoveUp) {
		return -1
	}
	return 1
}

// aligned pairs the raw entries of a JSON array with their typed views,
// which the engine makes for the object entries only: the result has one
// element per raw entry, nil where the entry is not an object.
func aligned[T any](raw []any, typed []T) []*T {
	out := make([]*T, len(raw))
	next := 0
	for i, e := range raw {
		if _, isObj := e.(*jsonv.Object); isObj && next < len(typed) {
			out[i] = &typed[next]
			next++
		}
	}
	return out
}

// entryEdit is what an entry-list key did: moved the cursor, or made the
// entries next ("move" or "delete" the entry that was at from).
type entryEdit struct {
	moved bool
	next  []any
	verb  string
	from  int
}

// entryKeys handles the keys every entry list of the forms shares (the
// regex rules, the capability bindings): up and down move the cursor, K
// and J reorder the focused entry (the cursor follows it), x deletes it.
func entryKeys(kp tea.KeyPressMsg, k *keymap.Forms, list *common.List[common.TextRow], entries []any) entryEdit {
	row := list.Cursor()
	switch {
	case key.Matches(kp, k.Up):
		list.Move(-1)
		return entryEdit{moved: true}
	case key.Matches(kp, k.Down):
		list.Move(1)
		return entryEdit{moved: true}
	case key.Matches(kp, k.Top):
		list.SetCursor(0)
		return entryEdit{moved: true}
	case key.Matches(kp, k.Bottom):
		list.SetCursor(len(entries) - 1)
		return entryEdit{moved: true}
	case len(entries) == 0:
	case key.Matches(kp, k.Delete):
		return entryEdit{next: without(entries, row), verb: "delete", from: row}
	case key.Matches(kp, k.MoveUp), key.Matches(kp, k.MoveDown):
		j := row + moveStep(kp, k)
		if j < 0 || j >= len(entries) {
			return entryEdit{}
		}
		list.SetCursor(j)
		return entryEdit{next: swapped(entries, row, j), verb: "move", from: row}
	}
	return entryEdit{}
}

// setDetail installs the focused entry's fields, laid out for the
// detail's width.
func (p *entryPanes) setDetail(detail fieldList) {
	p.detail = detail
	p.detail.setWidth(p.detailWidth)
}

// setDetailWidth lays the detail out for width cells.
func (p *entryPanes) setDetailWidth(width int) {
	p.detailWidth = width
	p.detail.setWidth(width)
}

// entryPanes is the two-pane layout of the forms that edit a list of
// entries (the regex rules, the capability bindings): the entry list and
// the focused entry's fields.
type entryPanes struct {
	list   *common.List[common.TextRow]
	pane   int // 0 the list, 1 the fields
	detail fieldList
	// detailWidth is the detail's width in the form's layout (SetSize).
	detailWidth int
	// next is the cursor for the re-created form after an add (the new
	// entry does not exist in this instance's draft).
	next *Cursor
}

// setEntries lists the entries' summaries (clean, one line each) and
// restores a cursor from an earlier instance.
func (p *entryPanes) setEntries(summaries []string, c Cursor) {
	p.list = common.NewList(common.RenderTextRow)
	p.list.SetItems(common.TextRows(summaries))
	p.list.SetCursor(c.Row)
	if len(summaries) > 0 {
		p.pane = common.Clamp(c.Pane, 0, 1)
	}
}

// row is the focused entry.
func (p *entryPanes) row() int { return p.list.Cursor() }

func (p *entryPanes) cursor() Cursor {
	if p.next != nil {
		return *p.next
	}
	return Cursor{Row: p.row(), Detail: p.detail.row(), Pane: p.pane}
}

// capturesInput is true while a field of the focused entry is edited.
func (p *entryPanes) capturesInput() bool { return p.pane == 1 && p.detail.editing() }

// detailHelp is the fields pane's footer: the field's keys, then extra and
// the way back to the list when no field is being edited.
func (p *entryPanes) detailHelp(k *keymap.Forms, extra ...key.Binding) []key.Binding {
	bs := p.detail.help()
	if !p.detail.editing() {
		bs = append(append(bs, extra...), k.List)
	}
	return bs
}

// routeKey handles what both panes share: in the fields pane every
// message goes to the fields (the list key or cancel go back to the
// list); in the list pane entryKeys moves (then rebuild shows the new
// entry's fields), reorders or deletes. done is false for a key the form
// handles itself; an edit of the entries comes back in e.next.
func (p *entryPanes) routeKey(msg tea.Msg, k *keymap.Forms, entries []any, rebuild func()) (e entryEdit, cmd tea.Cmd, done bool) {
	kp, isKey := msg.(tea.KeyPressMsg)
	if p.pane == 1 {
		if !p.detail.editing() && isKey && key.Matches(kp, k.List, k.Cancel) {
			p.pane = 0
			return e, nil, true
		}
		_, cmd := p.detail.update(msg)
		return e, cmd, true
	}
	if !isKey {
		return e, nil, true
	}
	e = entryKeys(kp, k, p.list, entries)
	if e.moved {
		rebuild()
	}
	return e, nil, e.moved || e.next != nil
}
