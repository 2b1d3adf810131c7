package session

import (
	"fmt"
	"strconv"
	"strings"
)

// LoadNotes describes, one human-readable line each, what reading the
// session skipped or noticed that changes what the user sees: lines above
// the line limit (with their size), malformed lines, extra headers and ids
// used by more than one entry. Text taken from the file (ids) is quoted with
// strconv.Quote, so a note never carries a raw control character. Pi skips
// the same lines silently; the CLI prints these on stderr.
func (s *Session) LoadNotes() []string {
	d := &s.Diagnostics
	var notes []string
	for k, line := range d.OversizedLines {
		size := "its"
		if k < len(d.OversizedLineBytes) {
			n := d.OversizedLineBytes[k]
			size = fmt.Sprintf("%d bytes (%s),", n, formatBytes(n))
		}
		notes = append(notes, fmt.Sprintf("line %d skipped: %s above the %s line limit", line, size, formatBytes(int64(d.LineLimit))))
	}
	if d.MalformedLines > 0 {
		notes = append(notes, fmt.Sprintf("%d malformed line(s) skipped (%s)", d.MalformedLines, lineList(d.MalformedLineNumbers, d.MalformedLines)))
	}
	if d.ExtraHeaders > 0 {
		notes = append(notes, fmt.Sprintf("%d extra session header line(s) ignored", d.ExtraHeaders))
	}
	for _, dup := range s.DuplicateIDs() {
		notes = append(notes, fmt.Sprintf("id %s is used by %d entries (%s); parent links and --leaf use the last one",
			strconv.Quote(dup.ID), len(dup.Lines), lineList(dup.Lines, len(dup.Lines))))
	}
	return notes
}

// lineList renders "line 3", "lines 3, 7" or "lines 3, 7, … (12 in all)"
// from the first known line numbers of total lines.
func lineList(lines []int, total int) string {
	const show = 10
	parts := make([]string, 0, min(len(lines), show))
	for _, l := range lines[:min(len(lines), show)] {
		parts = append(parts, strconv.Itoa(l))
	}
	word := "lines "
	if total == 1 {
		word = "line "
	}
	out := word + strings.Join(parts, ", ")
	if total > len(parts) {
		out += fmt.Sprintf(", … (%d in all)", total)
	}
	return out
}

// formatBytes renders a size in binary units: "32 MiB" for exact
// multiples, "300.0 MiB" otherwise, plain bytes below one KiB.
func formatBytes(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}}
	for _, u := range units {
		if n >= u.size {
			if n%u.size == 0 {
				return fmt.Sprintf("%d %s", n/u.size, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// TreeNotes describes what the tree had to repair, one human-readable line
// each: every parentId cycle (its entries, following parentId from the
// entry shown as a root) and the entries whose parent does not exist. Ids
// are quoted with strconv.Quote.
func (s *Session) TreeNotes(t *Tree) []string {
	var notes []string
	for _, b := range t.CycleBreaks {
		ids := []string{strconv.Quote(s.Entries[b].ID)}
		lines := []int{s.Entries[b].Line}
		for cur := int(s.parent[b]); cur >= 0 && cur != b && len(ids) <= 10; cur = int(s.parent[cur]) {
			ids = append(ids, strconv.Quote(s.Entries[cur].ID))
			lines = append(lines, s.Entries[cur].Line)
		}
		chain := strings.Join(ids, " → ")
		if len(ids) > 10 {
			chain += " → …"
		} else {
			chain += " → " + ids[0]
		}
		notes = append(notes, fmt.Sprintf("parentId cycle %s (%s): shown with %s as a root",
			chain, lineList(lines, len(lines)), ids[0]))
	}
	if n := len(t.Orphans); n > 0 {
		list := s.entryList(t.Orphans, func(e *Entry) string {
			return fmt.Sprintf("%s (parent %s, line %d)", strconv.Quote(e.ID), strconv.Quote(e.ParentID), e.Line)
		})
		if n == 1 {
			notes = append(notes, "1 entry names a parent that does not exist and is shown as a root: "+list)
		} else {
			notes = append(notes, fmt.Sprintf("%d entries name a parent that does not exist and are shown as roots: %s", n, list))
		}
	}
	if n := len(t.SelfParents); n > 0 {
		list := s.entryList(t.SelfParents, func(e *Entry) string {
			return fmt.Sprintf("%s (line %d)", strconv.Quote(e.ID), e.Line)
		})
		if n == 1 {
			notes = append(notes, "1 entry names itself as its parent and is shown as a root: "+list)
		} else {
			notes = append(notes, fmt.Sprintf("%d entries name themselves as their parent and are shown as roots: %s", n, list))
		}
	}
	return notes
}

// RepairNotes is TreeNotes of the session's tree, without building the
// tree when nothing can need repair: every parent link names another
// existing entry earlier in the file (so no link is missing, none names its
// own entry and none can close a cycle), which is the case for files Pi
// wrote.
func (s *Session) RepairNotes() []string {
	for i := range s.Entries {
		e := &s.Entries[i]
		if !e.HasParent {
			continue
		}
		if p := int(s.parent[i]); p < 0 || p >= i || (e.HasID && e.ParentID == e.ID) {
			return s.TreeNotes(s.Tree())
		}
	}
	return nil
}

// entryList describes the first five of the entries at idx with describe,
// saying how many there are in all when there are more.
func (s *Session) entryList(idx []int, describe func(*Entry) string) string {
	const show = 5
	parts := make([]string, 0, min(len(idx), show))
	for _, i := range idx[:min(len(idx), show)] {
		parts = append(parts, describe(&s.Entries[i]))
	}
	list := strings.Join(parts, ", ")
	if len(idx) > show {
		list += fmt.Sprintf(", … (%d in all)", len(idx))
	}
	return list
}
