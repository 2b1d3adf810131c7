package payloads

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// pickKind is what a picker row stands for.
type pickKind uint8

const (
	pickFollow  pickKind = iota // back to the default pair that follows the selection
	pickNone                    // no A side: every block of B counts as added
	pickSaved                   // a saved payload of the project
	pickRequest                 // the request of an assistant message of the branch
	pickNext                    // the next request from the selected entry
	pickPreset                  // a preset compiled at the selected entry
	pickTyped                   // type a reference
)

var pickTags = [...]string{i18n.Mark("follow"), i18n.Mark("none"), i18n.Mark("saved"), i18n.Mark("request"),
	i18n.Mark("next"), i18n.Mark("preset"), i18n.Mark("type")}

// pickTagWidth is the cells of the tag column: the widest tag in the
// current language and a space, at least eight as before.
func pickTagWidth() int {
	w := 7
	for _, t := range pickTags {
		w = max(w, common.Width(i18n.T(t)))
	}
	return w + 1
}

// pickItem is one row of the reference picker; label and note are already
// sanitised.
type pickItem struct {
	kind  pickKind
	ref   string
	label string
	note  string
}

// renderPick draws a picker row: a kind tag, the label, the note.
func renderPick(it pickItem, rs common.RowState) string {
	st := rs.Styles
	tag := common.PadRight(i18n.T(pickTags[it.kind]), pickTagWidth())
	line := tag + it.label
	if it.note != "" {
		line += "  " + it.note
	}
	line = ansi.Truncate(line, rs.Width, "…")
	if rs.Selected {
		style := st.List.SelectedBlurred
		if rs.Focused {
			style = st.List.Selected
		}
		return style.Render(line + strings.Repeat(" ", max(0, rs.Width-ansi.StringWidth(line))))
	}
	rest := strings.TrimPrefix(line, tag)
	return st.Text.Muted.Render(tag) + st.Text.Normal.Render(rest)
}

// picker chooses the reference of one side, as a part over the panel:
// its list of what can be compared (filtered on its filter line) and the
// line a reference is typed on. Its Update moves, filters and types;
// choosing a row and leaving it ask the panel (chooseIntent,
// closePickerIntent).
type picker struct {
	com     *common.Common
	keys    *keymap.Payloads
	side    int
	list    *common.List[pickItem]
	loading bool
	err     string
	typing  bool
	input   textinput.Model
}

func newPicker(com *common.Common, keys *keymap.Payloads, side int, current string) *picker {
	p := &picker{com: com, keys: keys, side: side, list: common.NewList(renderPick), loading: true}
	p.list.SetFilter(common.FilterWords(func(it pickItem) string { return i18n.T(pickTags[it.kind]) + " " + it.label + " " + it.note }))
	p.list.SetIdentity(func(it pickItem) string { return fmt.Sprint(it.kind) + "\x00" + it.ref })
	in := common.NewTextInput(com, i18n.T("reference: "), current)
	in.Placeholder = i18n.T("FILE, session:FILE#ENTRY or preset:SELECTOR@FILE#ENTRY")
	p.input = in
	return p
}

// Update implements part: on the typed line, open checks the reference
// and asks for it, back goes back to the list, the rest (a paste too) is
// typed; on the list, the filter line takes its keys, back asks to close,
// open chooses the row (the typed-reference row opens the line), the
// moving keys move.
func (p *picker) Update(msg tea.Msg) (tea.Cmd, intent) {
	k := p.keys
	press, isKey := msg.(tea.KeyPressMsg)
	if p.typing {
		switch {
		case isKey && key.Matches(press, k.Open):
			ref := p.input.Value()
			if _, err := replay.ParseRef(ref); err != nil {
				p.err = sanitize.Line(err.Error())
				return nil, nil
			}
			return nil, chooseIntent{item: pickItem{kind: pickTyped, ref: ref}}
		case isKey && key.Matches(press, k.Back):
			p.typing = false
			p.input.Blur()
			return nil, nil
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		return cmd, nil
	}
	switch {
	case !isKey:
	case p.list.Filtering():
		p.list.FilterKey(press, k.Open, k.Back, common.TextKeys(p.com))
	case key.Matches(press, k.Back):
		return nil, closePickerIntent{}
	case key.Matches(press, p.com.Keys.Filter):
		p.list.StartFilter()
	case key.Matches(press, k.Open):
		return p.choose()
	default:
		p.list.HandleNav(press, k.Nav)
	}
	return nil, nil
}

// choose is enter (or a click) on the list: the reference under the
// cursor is asked for, or the typed-reference row opens its line.
func (p *picker) choose() (tea.Cmd, intent) {
	it, ok := p.list.Selected()
	if !ok {
		return nil, nil
	}
	if it.kind == pickTyped {
		p.typing = true
		return p.input.Focus(), nil
	}
	return nil, chooseIntent{item: it}
}

// ShortHelp implements part.
func (p *picker) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Open, p.com.Keys.Filter, p.keys.Back}
}

// CapturesInput implements part: while a reference is typed or the list
// is filtered.
func (p *picker) CapturesInput() bool { return p.typing || p.list.Filtering() }

// View draws the picker in a w×h frame.
func (p *picker) View(st *themes.Styles, w, h int) string {
	title := i18n.T("Pick A (earlier request)")
	if p.side == 1 {
		title = i18n.T("Pick B (later request)")
	}
	var lines []string
	switch {
	case p.typing:
		lines = append(lines, p.input.View(), "", st.Text.Muted.Render(i18n.T("%s compares · %s back to the list", p.keys.Open.Help().Key, p.keys.Back.Help().Key)))
	case p.loading:
		lines = append(lines, st.Text.Muted.Render(i18n.T("looking for saved payloads, requests and presets…")))
	default:
		lines = append(lines, p.list.View(st, max(0, w-4), max(0, h-3), true)...)
	}
	if p.err != "" {
		lines = append([]string{st.Text.Danger.Render(p.err)}, lines...)
	}
	return common.Frame(*st, w, h, title, p.list.Position(), true, lines)
}

// pickerItemsMsg delivers the picker's rows.
type pickerItemsMsg struct {
	gen   int
	items []pickItem
	err   error
}

// pickerItemsCmd lists what can be compared: the default pair, saved
// payloads, the requests of the selected branch, the next request from
// the selected entry and every preset at that entry.
func pickerItemsCmd(e env, gen, side int, sel common.Selection) tea.Cmd {
	return func() tea.Msg {
		items, err := pickerItems(e, side, sel)
		return pickerItemsMsg{gen: gen, items: items, err: err}
	}
}

func pickerItems(e env, side int, sel common.Selection) ([]pickItem, error) {
	items := []pickItem{{kind: pickFollow, label: i18n.T("follow the selection: the selected entry against the previous request")}}
	if side == 0 {
		items = append(items, pickItem{kind: pickNone, label: i18n.T("nothing: every block of B counts as added")})
	}
	saved, err := session.ListPayloads(e.payloadDir())
	if err != nil {
		return items, err
	}
	for _, p := range saved {
		items = append(items, pickItem{kind: pickSaved, ref: p.Path, label: sanitize.Line(filepath.Base(p.Path)),
			note: i18n.T("%s · %d bytes", p.ModTime.Format("2006-01-02 15:04"), p.Size)})
	}
	if sel.SessionFile != "" {
		s, err := e.cache.open(sel.SessionFile)
		if err != nil {
			return items, err
		}
		idx := s.LeafIndex()
		if sel.EntryID != "" {
			if i, ok := s.IndexOf(sel.EntryID); ok {
				idx = i
			}
		}
		if idx >= 0 {
			items = append(items, sessionItems(s, sel.SessionFile, idx)...)
			items = append(items, presetItems(e, sel.SessionFile, s.Entries[idx].ID)...)
		}
	}
	items = append(items, pickItem{kind: pickTyped, label: i18n.T("type a reference…")})
	return items, nil
}

// sessionItems are the requests of the branch ending at idx, newest
// first, with their recorded cache use; plus the next request from idx
// when idx is not an assistant message.
func sessionItems(s *session.Session, path string, idx int) []pickItem {
	var out []pickItem
	ref := func(id string) string { return replay.Ref{Kind: replay.RefSession, Path: path, Entry: id}.String() }
	if e := &s.Entries[idx]; !(e.Type == session.TypeMessage && e.Role == session.RoleAssistant) {
		out = append(out, pickItem{kind: pickNext, ref: ref(e.ID), label: i18n.T("next request from %s", sanitize.Clip(e.ID, 20))})
	}
	rep := replay.CacheReportAt(s, idx)
	uses := map[int]int{}
	for k, u := range rep.Uses {
		uses[u.Index] = k
	}
	reqs := replay.RequestEntries(s, idx)
	for k := len(reqs) - 1; k >= 0; k-- {
		e := &s.Entries[reqs[k]]
		when, _, _ := strings.Cut(strings.TrimSuffix(e.Timestamp, "Z"), ".") // to the second
		note := sanitize.Clip(strings.Replace(when, "T", " ", 1), 19)
		if u, ok := uses[reqs[k]]; ok {
			cu := rep.Uses[u]
			note += i18n.T(" · read %d write %d in %d", int64(cu.CacheRead), int64(cu.CacheWrite), int64(cu.Input))
			if cu.Dropped {
				note += i18n.T(" · cache dropped")
			}
		}
		out = append(out, pickItem{kind: pickRequest, ref: ref(e.ID), label: i18n.T("request for %s", sanitize.Clip(e.ID, 20)), note: note})
	}
	return out
}

// presetItems are the presets of the library compiled at the entry.
func presetItems(e env, path, entryID string) []pickItem {
	lib, err := e.svc.Library()
	if err != nil {
		return nil
	}
	var out []pickItem
	for _, p := range lib.Presets {
		ref := replay.Ref{Kind: replay.RefPreset, Selector: p.Key(), Path: path, Entry: entryID}.String()
		note := ""
		if errs, _ := p.Counts(); errs > 0 {
			note = i18n.T("%d error(s)", errs)
		}
		out = append(out, pickItem{kind: pickPreset, ref: ref, label: i18n.T("%s at %s", sanitize.Clip(p.Key(), 60), sanitize.Clip(entryID, 20)), note: note})
	}
	return out
}
