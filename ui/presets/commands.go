package presets

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// previewDelay is how long the preview waits after the last edit before it
// compiles, so typing does not compile on every key.
var previewDelay = 150 * time.Millisecond

// Messages produced by the panel's commands.
type (
	// libraryMsg carries a fresh library snapshot.
	libraryMsg struct {
		lib *resources.Library
		err error
	}
	// contextMsg carries what the preview compiles against.
	contextMsg struct {
		ctx *runContext
	}
	// previewDueMsg fires previewDelay after an edit.
	previewDueMsg struct{ version int }
	// previewMsg carries a finished preview of draft version.
	previewMsg struct {
		version int
		res     compile.PreviewResult
		// pieces are the compiled request's parts as the what-if compares
		// them (compare.PreviewPieces, as preset preview --without does).
		pieces []compare.Piece
	}
	// openedMsg carries a Preset file parsed into a draft (request seq).
	openedMsg struct {
		seq    int
		p      *resources.Preset
		how    openHow
		d      *draft.Draft
		parsed bool
	}
	// checkedMsg carries the validation of one draft version.
	checkedMsg struct{ check draft.Check }
	// savedMsg reports a save of the draft's tree; errors counts the
	// error diagnostics of what was written.
	savedMsg struct {
		key    string
		tree   *jsonv.Object
		errors int
		res    resources.WriteResult
		err    error
	}
	// createdMsg reports a fork or a new preset.
	createdMsg struct {
		verb  string
		scope preset.Scope
		id    string
		res   resources.WriteResult
		err   error
	}
)

// loadLibraryCmd reads the whole library.
func loadLibraryCmd(svc *services.Services) tea.Cmd {
	ws := svc.Workspace()
	return func() tea.Msg {
		lib, err := svc.Reload() // read again: every panel then shares it
		if err != nil {
			err = wrapText(err, i18n.T("load the preset library of %s: %v", ws.Cwd, err))
		}
		return libraryMsg{lib: lib, err: err}
	}
}

// previewDue schedules the debounced preview of draft version: only the
// newest version's tick compiles.
func previewDue(version int) tea.Cmd {
	return tea.Tick(previewDelay, func(time.Time) tea.Msg { return previewDueMsg{version: version} })
}

// previewCmd compiles the draft's stack against the run context; its regex
// rules stop once ctx is cancelled (see previewRun).
func previewCmd(ctx context.Context, version int, stack *preset.Stack, rc *runContext) tea.Cmd {
	return func() tea.Msg {
		runtime, base, _ := rc.runtimeFor(stack)
		runtime.CustomSlots = rc.slots
		res := compile.PreviewContext(ctx, stack, runtime, base, rc.messages, rc.macros)
		pieces := compare.PreviewPieces(nil, res)
		// Capability updates first (pi-forge projects them after the
		// compile), then Pi's System messages as the dock shows them.
		return previewMsg{version: version, res: compile.PresentSystemMessages(rc.projectCapabilities(res)), pieces: pieces}
	}
}

// openCmd parses a loaded Preset's bytes into a draft: the file's own JSON
// when it is an object (so unknown fields and the user's order survive),
// else pi-forge's fallback stack, marked not parsed.
func openCmd(seq int, p *resources.Preset, how openHow) tea.Cmd {
	return func() tea.Msg {
		tree, parsed := treeOf(p)
		return openedMsg{seq: seq, p: p, how: how, d: draft.Open(tree, p.FileName(), p.Scope), parsed: parsed}
	}
}

// treeOf is the draft tree of a loaded Preset and whether it is the
// file's own.
func treeOf(p *resources.Preset) (*jsonv.Object, bool) {
	if p.Raw != nil {
		if v, err := jsonv.Parse(p.Raw); err == nil {
			if obj, ok := v.(*jsonv.Object); ok {
				return obj, true
			}
		}
	}
	return preset.ToJSON(p.Stack), false
}

// checkCmd validates a draft version (after typing in a block).
func checkCmd(s draft.Snapshot) tea.Cmd {
	return func() tea.Msg { return checkedMsg{check: s.Check()} }
}

// saveCmd writes the draft's tree (unknown keys and the user's order
// kept, resources.PresetTreeBytes), with the revision the user loaded.
func saveCmd(ws resources.Workspace, scope preset.Scope, id string, s draft.Snapshot, revision string) tea.Cmd {
	return func() tea.Msg {
		c := s.Check()
		res, err := resources.SavePresetTree(ws, scope, id, s.Tree, revision)
		return savedMsg{key: string(scope) + ":" + id, tree: s.Tree, errors: c.Diagnostics.Count(preset.LevelError), res: res, err: err}
	}
}

// newErrors are the error diagnostics of diags that are not in had.
func newErrors(diags preset.Diagnostics, had []string) []string {
	var out []string
	for _, d := range diags {
		if d.Level == preset.LevelError && !slices.Contains(had, d.Message) {
			out = append(out, d.Message)
		}
	}
	return out
}

// createCmd writes tree under a new id as a new Preset file (fork, new or
// import), exclusively, unless in scope it has errors its source does not
// (had); a new Preset also takes the id as its name.
func createCmd(ws resources.Workspace, verb string, scope preset.Scope, tree *jsonv.Object, id string, had []string) tea.Cmd {
	return func() tea.Msg {
		next, err := draft.Renamed(tree, id, verb == "new")
		if err != nil {
			return createdMsg{verb: verb, scope: scope, id: id, err: err}
		}
		stack, diags := preset.ParseValue(next, id+".json", preset.ParseOptions{Scope: scope})
		if gained := newErrors(diags, had); len(gained) > 0 {
			// as preset fork/new refuse it: pi-forge would never activate it
			return createdMsg{verb: verb, scope: scope, id: id, err: errors.New(i18n.T("%s:%s would not validate there (%s), so it was not written; pi-forge would never activate it",
				scope, id, strings.Join(gained, " ")))}
		}
		res, err := resources.CreatePresetTree(ws, scope, stack.ID, next)
		return createdMsg{verb: verb, scope: scope, id: stack.ID, res: res, err: err}
	}
}
