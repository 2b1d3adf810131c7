package presets

import (
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

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

// libraryWatch is a running watcher.
type libraryWatch struct {
	w *fsnotify.Watcher
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

// startWatchCmd starts the watcher in a command; a directory that does not
// exist yet is watched through its parent when that exists.
func startWatchCmd(ws resources.Workspace) tea.Cmd {
	return func() tea.Msg {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return watchStartedMsg{}
		}
		added := 0
		for _, dir := range watchDirs(ws) {
			for _, d := range []string{dir, filepath.Dir(dir)} {
				if fi, err := os.Stat(d); err == nil && fi.IsDir() && w.Add(d) == nil {
					added++
					break
				}
			}
		}
		if added == 0 {
			w.Close()
			return watchStartedMsg{}
		}
		return watchStartedMsg{watch: &libraryWatch{w: w}}
	}
}

// waitCmd waits for the next burst of events.
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
	return tea.Batch(loadLibraryCmd(m.com.Workspace), next)
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
		m.setStatus(m.open.Key()+" was deleted on disk; your draft is kept — fork ("+m.keys.Fork.Help().Key+") writes it under a new id", true)
	case now.SourceRevision == m.revision:
	case !m.d.Dirty():
		m.setStatus("reloaded "+now.Key()+": it changed on disk", false)
		return m.openPreset(now, openQuiet)
	default:
		m.conflict = true
		m.setStatus(now.Key()+" changed on disk; your draft is kept — "+m.keys.Reload.Help().Key+" reloads it, "+
			m.keys.Save.Help().Key+" shows the difference and offers overwrite or fork", true)
	}
	return nil
}
