package payloads

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
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

var pickTags = [...]string{"follow", "none", "saved", "request", "next", "preset", "type"}

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
	tag := fmt.Sprintf("%-8s", pickTags[it.kind])
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

// picker chooses the reference of one side.
type picker struct {
	side    int
	list    *common.List[pickItem]
	loading bool
	err     string
	typing  bool
	input   textinput.Model
}

func newPicker(com *common.Common, side int, current string) *picker {
	p := &picker{side: side, list: common.NewList(renderPick), loading: true}
	p.list.SetFilter(common.FilterWords(func(it pickItem) string { return pickTags[it.kind] + " " + it.label + " " + it.note }))
	p.list.SetIdentity(func(it pickItem) string { return fmt.Sprint(it.kind) + "\x00" + it.ref })
	in := common.NewTextInput(com, "reference: ", current)
	in.Placeholder = "FILE, session:FILE#ENTRY or preset:SELECTOR@FILE#ENTRY"
	p.input = in
	return p
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
	items := []pickItem{{kind: pickFollow, label: "follow the selection: the selected entry against the previous request"}}
	if side == 0 {
		items = append(items, pickItem{kind: pickNone, label: "nothing: every block of B counts as added"})
	}
	saved, err := session.ListPayloads(e.payloadDir())
	if err != nil {
		return items, err
	}
	for _, p := range saved {
		items = append(items, pickItem{kind: pickSaved, ref: p.Path, label: sanitize.Line(filepath.Base(p.Path)),
			note: fmt.Sprintf("%s · %d bytes", p.ModTime.Format("2006-01-02 15:04"), p.Size)})
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
	items = append(items, pickItem{kind: pickTyped, label: "type a reference…"})
	return items, nil
}

// sessionItems are the requests of the branch ending at idx, newest
// first, with their recorded cache use; plus the next request from idx
// when idx is not an assistant message.
func sessionItems(s *session.Session, path string, idx int) []pickItem {
	var out []pickItem
	ref := func(id string) string { return replay.Ref{Kind: replay.RefSession, Path: path, Entry: id}.String() }
	if e := &s.Entries[idx]; !(e.Type == session.TypeMessage && e.Role == session.RoleAssistant) {
		out = append(out, pickItem{kind: pickNext, ref: ref(e.ID), label: "next request from " + sanitize.Clip(e.ID, 20)})
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
			note += fmt.Sprintf(" · read %d write %d in %d", int64(cu.CacheRead), int64(cu.CacheWrite), int64(cu.Input))
			if cu.Dropped {
				note += " · cache dropped"
			}
		}
		out = append(out, pickItem{kind: pickRequest, ref: ref(e.ID), label: "request for " + sanitize.Clip(e.ID, 20), note: note})
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
			note = fmt.Sprintf("%d error(s)", errs)
		}
		out = append(out, pickItem{kind: pickPreset, ref: ref, label: sanitize.Clip(p.Key(), 60) + " at " + sanitize.Clip(entryID, 20), note: note})
	}
	return out
}
