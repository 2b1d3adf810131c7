package presets

import (
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// Watching the library: an fsnotify watcher (a well-kept library rather
// than polling) on the Preset and profile directories of both scopes runs
// outside Update; a command waits for the next burst of events and the
// panel reloads the library snapshot. A draft is never replaced by a
// change on disk while it has unsaved edits: the panel says so and the user
// reloads, forks or saves through the conflict dialog.

// watchDebounce gathers a burst of events (an editor's write + rename) into
// one reload.
var watchDebounce = 200 * time.Millisecond

// libraryWatch is a running watcher: w watches each storage directory
// that exists and its parent (so a directory created later, or deleted and
// created again, is noticed and watched from then on); dirs are the
// storage directories whose files count.
type libraryWatch struct {
	w    *fsnotify.Watcher
	dirs map[string]bool
}

type (
	// watchStartedMsg carries a started watcher (nil when none could be
	// started: no directory exists, or the system refused).
	watchStartedMsg struct{ watch *libraryWatch }
	// libraryChangedMsg says files changed under a watched directory.
	libraryChangedMsg struct{ paths []string }
)

// EnableWatch makes the panel watch the library directories once it
// starts (the real program turns it on; tests drive the panel without
// background watchers).
func (m *Model) EnableWatch() { m.watchOn = true }

// watchDirs are the directories a change of which changes the library.
func watchDirs(ws resources.Workspace) []string {
	var out []string
	for _, kind := range []resources.Kind{resources.KindPreset, resources.KindProfile} {
		for _, scope := range []resources.Scope{resources.ScopeProject, resources.ScopeGlobal} {
			if scope == resources.ScopeProject && !ws.Trust.Trusted {
				continue
			}
			out = append(out, resources.StorageDir(ws, kind, scope))
		}
	}
	return out
}

// startWatchCmd starts the watcher in a command.
func startWatchCmd(ws resources.Workspace) tea.Cmd {
	return func() tea.Msg {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return watchStartedMsg{}
		}
		lw := &libraryWatch{w: w, dirs: map[string]bool{}}
		added := 0
		for _, dir := range watchDirs(ws) {
			lw.dirs[dir] = true
			for _, d := range []string{dir, filepath.Dir(dir)} {
				if fi, err := os.Stat(d); err == nil && fi.IsDir() && w.Add(d) == nil {
					added++
				}
			}
		}
		if added == 0 {
			w.Close()
			return watchStartedMsg{}
		}
		return watchStartedMsg{watch: lw}
	}
}

// relevant reports whether an event changes the library: a file in a
// storage directory, or a storage directory itself (a newly created one
// is watched from now on). Other entries of a parent (config.json, the
// payloads directory) do not count.
func (lw *libraryWatch) relevant(ev fsnotify.Event) bool {
	if lw.dirs[ev.Name] {
		if ev.Has(fsnotify.Create) {
			_ = lw.w.Add(ev.Name) // its files count from now on; a failure leaves the parent's view
		}
		return true
	}
	return lw.dirs[filepath.Dir(ev.Name)]
}

// waitCmd waits for the next burst of relevant events.
func (lw *libraryWatch) waitCmd() tea.Cmd {
	return func() tea.Msg {
		var paths []string
		var timeout <-chan time.Time
		for {
			select {
			case ev, ok := <-lw.w.Events:
				if !ok {
					return nil
				}
				if !lw.relevant(ev) {
					continue
				}
				paths = append(paths, ev.Name)
				if timeout == nil {
					timeout = time.After(watchDebounce)
				}
			case _, ok := <-lw.w.Errors:
				if !ok {
					return nil
				}
			case <-timeout:
				return libraryChangedMsg{paths: paths}
			}
		}
	}
}

// applyWatchStarted keeps the watcher and waits for its first events.
func (m *Model) applyWatchStarted(msg watchStartedMsg) tea.Cmd {
	if msg.watch == nil {
		return nil
	}
	m.watch = msg.watch
	return m.watch.waitCmd()
}

// applyLibraryChanged reloads the library; the open draft is checked
// against the new snapshot when it arrives (noticeDiskChange).
func (m *Model) applyLibraryChanged(msg libraryChangedMsg) tea.Cmd {
	m.diskChanged = true
	var next tea.Cmd
	if m.watch != nil {
		next = m.watch.waitCmd()
	}
	return tea.Batch(loadLibraryCmd(m.com.Services()), next)
}

// noticeDiskChange runs after a reload caused by the watcher: when the
// open Preset's file now has another revision, an untouched draft is
// reopened from disk, and a draft with edits is kept while the status
// offers the ways on.
func (m *Model) noticeDiskChange() tea.Cmd {
	if !m.diskChanged || m.open == nil || m.d == nil {
		m.diskChanged = false
		return nil
	}
	m.diskChanged = false
	now := m.findPreset(m.open.Scope, m.open.ID)
	switch {
	case now == nil:
		m.setStatus(i18n.T("%s was deleted on disk; your draft is kept — fork (%s) writes it under a new id", m.open.Key(), m.keys.Fork.Help().Key), true)
	case now.SourceRevision == m.revision:
		if m.conflict == conflictOnDisk {
			m.conflict = noConflict // back as the draft knows it
		}
	case !m.d.Dirty():
		m.setStatus(i18n.T("reloaded %s: it changed on disk", now.Key()), false)

		return m.openPreset(now, openQuiet)
	case m.conflict == conflictOnSave:
		// a refused save already said so (and may have its dialog open)
	default:
		m.conflict = conflictOnDisk
		m.setStatus(now.Key()+": "+m.diskChangeText(), true)
	}
	return nil
}
