package palette

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// The places the palette offers come from data other parts of the
// workbench already hold or read cheaply: the sessions the Session
// panel's picker discovered (handed over by the root, built into rows in
// a command), the entries of the selected session (session.Shared: the
// copy the panels share), the agents of the Agents panel's tree (handed
// over, few), and the Presets and capabilities of the library (read in a
// command). Each arrives as a sourceMsg and replaces its kind whole.

// sourceMsg carries one kind's rows, built in a command.
type sourceMsg struct {
	src Source
	// of identifies the data the rows were built from (a listing's first
	// element, a *session.Session, the library): rows of data already
	// shown are dropped, so an unchanged source costs no new match.
	of any
	// err says why the kind could not be read (its old rows stay).
	err error
}

// detailMax is how much of a first message or a task a row keeps.
const detailMax = 120

// sessionRows builds the rows of the discovered sessions (newest first):
// matched on the title and the first message, the id as an id. The
// first message is discovery's, already terminal-safe and clipped
// (session.ListItem.FirstMessage), so only the title is made here.
func sessionRows(items []session.ListItem) Source {
	titles := make([]string, len(items))
	firsts := make([]string, len(items))
	for i := range items {
		it := &items[i]
		titles[i] = it.Title()
		if it.FirstMessage != titles[i] {
			firsts[i] = it.FirstMessage
		}
	}
	return Source{
		Kind:   KindSession,
		Len:    len(items),
		Fields: []func(int) string{func(i int) string { return titles[i] }, func(i int) string { return firsts[i] }},
		ID:     func(i int) string { return items[i].ID },
		Item: func(i int) Item {
			it := &items[i]
			detail := firsts[i]
			if it.Name == "" { // the title is the first message, maybe cut
				detail = ""
			}
			return Item{Kind: KindSession, ID: shortID(it.ID), Title: titles[i], Detail: detail,
				Target: &common.JumpTarget{Panel: common.PanelSession, SessionFile: it.Path, SessionName: titles[i]}}
		},
	}
}

// sessionsCmd builds the sessions' rows off the UI goroutine; items is
// the picker's listing, which is replaced whole and never changed.
func sessionsCmd(items []session.ListItem) tea.Cmd {
	return func() tea.Msg { return sourceMsg{src: sessionRows(items), of: listingOf(items)} }
}

// listingOf identifies a listing: its first element (a new listing is a
// new slice).
func listingOf(items []session.ListItem) any {
	if len(items) == 0 {
		return nil
	}
	return &items[0]
}

// entryRows builds the rows of a session's entries, newest first:
// matched on the id and the label Pi's /label gave it.
func entryRows(file, title string, s *session.Session) Source {
	var idx []int // newest first, entries with an id
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if s.Entries[i].HasID && s.Entries[i].ID != "" {
			idx = append(idx, i)
		}
	}
	labels := map[int]string{}
	for _, l := range s.Labels() {
		if i, ok := s.IndexOf(l.TargetID); ok && l.Label != "" {
			labels[i] = sanitize.Clip(l.Label, detailMax)
		}
	}
	return Source{
		Kind:   KindEntry,
		Len:    len(idx),
		Fields: []func(int) string{func(i int) string { return labels[idx[i]] }},
		ID:     func(i int) string { return s.Entries[idx[i]].ID },
		Item: func(i int) Item {
			e := &s.Entries[idx[i]]
			what := e.Type
			if e.Role != "" {
				what = e.Role
			}
			detail := ""
			if l := labels[idx[i]]; l != "" {
				detail = "“" + l + "”"
			}
			if idx[i] == s.LeafIndex() {
				detail = strings.TrimPrefix(detail+" · "+i18n.T("leaf"), " · ")
			}
			return Item{Kind: KindEntry, ID: sanitize.Fold(e.ID), Title: sanitize.Fold(what), Detail: detail,
				Target: &common.JumpTarget{Panel: common.PanelSession, SessionFile: file, SessionName: title, EntryID: e.ID}}
		},
	}
}

// entriesCmd reads the selected session's entries (the parse the panels
// share: nothing is read again while a panel holds it).
func entriesCmd(file, name string) tea.Cmd {
	return func() tea.Msg {
		s, err := session.Shared(file)
		if err != nil {
			return sourceMsg{src: Source{Kind: KindEntry}, err: i18n.Errorf("the entries of %s: %w", file, err)}
		}
		return sourceMsg{src: entryRows(file, name, s), of: s}
	}
}

// AgentRows builds the rows of a pi-subagent tree's agents (root is the
// root session): matched on the path, the role and the task. It reads
// the agents now, so call it where they are not changing (in Update).
func AgentRows(root string, agents []*subagent.Agent) Source {
	items := make([]Item, 0, len(agents))
	for _, a := range agents {
		if a == nil || !a.Visible {
			continue
		}
		file := a.File
		if file == "" {
			file = a.SessionFile // the Agents panel finds it by path and says the file is missing
		}
		detail := sanitize.Fold(a.Descriptor.Role.Name)
		if a.Status != "" {
			detail = strings.TrimPrefix(detail+" · "+sanitize.Fold(a.Status), " · ")
		}
		if task := sanitize.Clip(a.Task(), detailMax); task != "" {
			detail += " · " + task
		}
		items = append(items, Item{Kind: KindAgent, Title: sanitize.Fold(a.Path), Detail: detail,
			Target: &common.JumpTarget{Panel: common.PanelAgents, SessionFile: root, AgentPath: a.Path, AgentFile: file}})
	}
	return ItemsSource(KindAgent, items)
}

// libraryRows builds the rows of the library's Presets and capabilities,
// matched on the id alone (the scope's colon is no word boundary for the
// scorer), the key and the name.
func libraryRows(lib *resources.Library) (presets, caps Source) {
	var ps, cs []Item
	var pids, cids []string
	for _, p := range lib.Presets {
		detail := ""
		if name := p.Name(); name != p.ID {
			detail = sanitize.Clip(name, detailMax)
		}
		if p.Stack != nil && p.Stack.Description != nil {
			detail = strings.TrimPrefix(detail+" · "+sanitize.Clip(*p.Stack.Description, detailMax), " · ")
		}
		pids = append(pids, sanitize.Fold(p.ID))
		ps = append(ps, Item{Kind: KindPreset, Title: sanitize.Fold(p.Key()), Detail: detail,
			Target: &common.JumpTarget{Panel: common.PanelPresets, PresetID: p.Key()}})
	}
	for _, c := range lib.Capabilities {
		detail := ""
		if c.Capability != nil && c.Capability.Name != nil {
			detail = sanitize.Clip(*c.Capability.Name, detailMax)
		}
		cids = append(cids, sanitize.Fold(c.ID))
		cs = append(cs, Item{Kind: KindCapability, Title: sanitize.Fold(c.Key()), Detail: detail,
			Target: &common.JumpTarget{Panel: common.PanelCapabilities, CapabilityID: c.Key()}})
	}
	return keyedSource(KindPreset, ps, pids), keyedSource(KindCapability, cs, cids)
}

// keyedSource is ItemsSource with the ids matched as a field of their
// own.
func keyedSource(kind Kind, items []Item, ids []string) Source {
	src := ItemsSource(kind, items)
	src.Fields = append([]func(int) string{func(i int) string { return ids[i] }}, src.Fields...)
	return src
}

// libraryCmd reads the library (presets and capabilities) in a command:
// the services' snapshot, or (fresh) read again and shared.
func libraryCmd(svc *services.Services, fresh bool) tea.Cmd {
	return func() tea.Msg {
		read := svc.Library
		if fresh {
			read = svc.Reload
		}
		lib, err := read()
		if err != nil {
			return sourcesMsg{err: i18n.Errorf("the library of %s: %w", svc.Workspace().Cwd, err)}
		}
		presets, caps := libraryRows(lib)
		return sourcesMsg{presets: presets, caps: caps}
	}
}

// sourcesMsg carries several kinds read by one command (the library's
// Presets and capabilities), or why they could not be read.
type sourcesMsg struct {
	presets, caps Source
	err           error
}

// shortID is the first block of a session id, as the picker shows it.
func shortID(id string) string {
	id = sanitize.Fold(id)
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
