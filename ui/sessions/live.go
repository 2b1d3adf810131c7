package sessions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// The picker marks the sessions being written and the sessions with a
// pi-subagent tree, and keeps both marks current without polling: the
// open session's tail reports every change in its directory (the
// project's sessions directory; session.TailOptions.Siblings), the panel
// reads again the header, head and tail of each session that changed
// (session.SummarizeFile, once per burst) and one timer, set only while a
// mark shows, takes the mark away when its window has passed.

// LiveWindow is how recently a session's file must have changed for the
// picker to mark it "live" (being written): Pi appends an entry at the
// end of every message, and a model's answer or a tool run seldom takes
// longer between two of them.
const LiveWindow = 2 * time.Minute

// pickerRefreshDelay gathers the changes of a burst of writes (an entry
// appended, a tree directory made) into one refresh of the picker.
const pickerRefreshDelay = 300 * time.Millisecond

// liveExpirySlack is how long after a mark's window ends its timer fires,
// so a timer that comes a little early does not find the mark still due.
const liveExpirySlack = time.Second

// liveState is the picker's side of the watch.
type liveState struct {
	// touched are the session files that changed since the last refresh.
	touched map[string]bool
	refresh common.Debounce
	// expiry is when the timer that takes the next mark away fires (zero:
	// no timer set).
	expiry time.Time
	// trees are the sessions with a tree last told to the other panels.
	trees []common.SessionRef
}

type (
	// pickerUpdatesMsg carries the sessions read again after a change.
	pickerUpdatesMsg struct {
		all     bool
		updates []pickerUpdate
	}
	// pickerUpdate is one changed file: its new summary, or gone.
	pickerUpdate struct {
		item session.ListItem
		gone bool
		// listed is true when a file not listed yet belongs to the
		// picker's scope (a session just started in the project).
		listed bool
	}
	// liveExpiryMsg is the timer that takes the picker's due marks away.
	liveExpiryMsg struct{ at time.Time }
)

// isLive reports whether a file modified at mod counts as being written
// at now: within LiveWindow, either way (a clock a little ahead).
func isLive(mod, now time.Time) bool {
	if mod.IsZero() {
		return false
	}
	age := now.Sub(mod)
	return age < LiveWindow && age > -LiveWindow
}

// touchSession notes that path (a session file, or a <id>.subagents tree
// directory next to one) changed; the picker reads the session again once
// the burst of changes rests.
func (m *Model) touchSession(path string) tea.Cmd {
	base := filepath.Base(path)
	switch {
	case strings.HasSuffix(base, ".subagents"):
		id := strings.TrimSuffix(base, ".subagents")
		i := slices.IndexFunc(m.picker.raw, func(it session.ListItem) bool { return it.ID == id })
		if i < 0 {
			return nil
		}
		path = m.picker.raw[i].Path
	case !strings.HasSuffix(base, ".jsonl"):
		return nil
	}
	if m.live.touched == nil {
		m.live.touched = map[string]bool{}
	}
	m.live.touched[path] = true
	return m.live.refresh.Ask(m.com, pickerRefreshDelay)
}

// liveDue starts the picker's refresh once the changes rest.
func (m *Model) liveDue(msg common.DueMsg) tea.Cmd {
	due, again := m.live.refresh.Due(msg)
	if !due || len(m.live.touched) == 0 {
		return again
	}
	paths := make([]string, 0, len(m.live.touched))
	for p := range m.live.touched {
		paths = append(paths, p)
	}
	clear(m.live.touched)
	slices.Sort(paths)
	return summarizeCmd(m.com.Services(), paths, m.picker.all)
}

// summarizeCmd reads the sessions at paths again, as discovery does, in a
// command: the header, the first and last 64 KiB, the file's time and
// whether a tree directory sits next to it.
func summarizeCmd(svc *services.Services, paths []string, all bool) tea.Cmd {
	ws, home := svc.Workspace(), svc.Home()
	return func() tea.Msg {
		defaultDir := ""
		if loc, err := svc.Locations(); err == nil {
			defaultDir = loc.DefaultSessionDir(ws.Cwd, home)
		}
		msg := pickerUpdatesMsg{all: all}
		for _, p := range paths {
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				msg.updates = append(msg.updates, pickerUpdate{item: session.ListItem{Path: p}, gone: true})
				continue
			}
			it := session.SummarizeFile(p, session.ListOptions{Home: home})
			if it.ID != "" {
				fi, err := os.Stat(filepath.Join(filepath.Dir(p), it.ID+".subagents"))
				it.HasAgentTree = err == nil && fi.IsDir()
			}
			listed := all || filepath.Dir(p) == defaultDir || (it.Cwd != "" && session.SameProject(it.Cwd, ws.Cwd))
			msg.updates = append(msg.updates, pickerUpdate{item: it, listed: listed})
		}
		return msg
	}
}

// applyPickerUpdates puts the sessions read again into the picker: a
// listed one is replaced, a new one of the picker's scope added, a
// removed one dropped; the list keeps its order by activity and its
// cursor on the same session.
func (m *Model) applyPickerUpdates(msg pickerUpdatesMsg) tea.Cmd {
	if msg.all != m.picker.all {
		return nil // a scope switch listed everything again
	}
	raw := slices.Clone(m.picker.raw)
	changed := false
	for _, u := range msg.updates {
		i := slices.IndexFunc(raw, func(it session.ListItem) bool { return it.Path == u.item.Path })
		switch {
		case u.gone && i >= 0:
			raw = slices.Delete(raw, i, i+1)
		case u.gone:
			continue
		case i >= 0:
			u.item.Source = raw[i].Source
			raw[i] = u.item
		case u.listed:
			raw = append(raw, u.item)
		default:
			continue
		}
		changed = true
	}
	if !changed {
		return nil
	}
	session.SortByActivity(raw)
	m.picker.setItems(raw, m.ls, m.com.Clock())
	return tea.Batch(m.scheduleLiveExpiry(), m.announceTrees())
}

// announceTrees tells the other panels (the Agents panel) which listed
// sessions have a pi-subagent tree, when that changed.
func (m *Model) announceTrees() tea.Cmd {
	var trees []common.SessionRef
	for _, it := range m.picker.list.Items() {
		if it.tree {
			trees = append(trees, common.SessionRef{File: it.path, Name: it.name, When: it.when})
		}
	}
	if slices.Equal(trees, m.live.trees) {
		return nil
	}
	m.live.trees = trees
	msg := common.AgentTreesMsg{Sessions: trees}
	return func() tea.Msg { return msg }
}

// scheduleLiveExpiry sets the timer that takes the next live mark away,
// unless one that fires no later is set; no mark, no timer.
func (m *Model) scheduleLiveExpiry() tea.Cmd {
	next, ok := m.picker.nextExpiry(m.com.Clock())
	if !ok {
		return nil
	}
	at := next.Add(liveExpirySlack)
	if !m.live.expiry.IsZero() && !m.live.expiry.After(at) {
		return nil
	}
	m.live.expiry = at
	return m.com.Later(at.Sub(m.com.Clock()), liveExpiryMsg{at: at})
}

// applyLiveExpiry redraws the picker's marks for the time now and sets the
// timer for the next mark to go. A mark still due when its timer fired
// (the clock did not reach it) gets no second timer for the same moment:
// the next change of the directory looks again.
func (m *Model) applyLiveExpiry(msg liveExpiryMsg) tea.Cmd {
	if m.live.expiry.IsZero() || !msg.at.Equal(m.live.expiry) {
		return nil // a newer timer replaced this one
	}
	m.live.expiry = time.Time{}
	now := m.com.Clock()
	m.picker.refresh(m.ls, now)
	next, ok := m.picker.nextExpiry(now)
	if !ok || !next.Add(liveExpirySlack).After(msg.at) {
		return nil
	}
	return m.scheduleLiveExpiry()
}
