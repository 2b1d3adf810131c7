// Package draft is the Preset being edited in the Presets panel.
//
// The file's own JSON tree is the source of truth: unknown keys and the
// user's key order survive every edit, and a save serialises what the
// tree parses to. Trees are never mutated once built: an edit (Apply)
// makes a new tree that shares every untouched subtree, so a tree held by
// a render, the history or a command stays exactly as it was.
//
// Around the tree the draft keeps an undo/redo history, whether it differs
// from the tree last loaded or saved (Dirty, found by comparing only the
// paths that changed), and the typed view the panel and its forms read:
// the normalized preset.Stack and its diagnostics. Edits keep the typed
// view current at once; typing in a block (an edit of one block's text)
// patches that one item instead of parsing the whole Preset again, and
// leaves the diagnostics to a Check run in a command (Snapshot, Install).
package draft

import (
	"fmt"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
)

// Edit is one change of the tree: set Value at Path, or delete the value
// at Path. Label names it in the history ("toggle persona"); Coalesce
// joins it to the previous edit when that had the same label.
type Edit struct {
	Path     Path
	Value    any
	Delete   bool
	Label    string
	Coalesce bool
}

// Draft is a Preset being edited. The zero value is not usable: start one
// with Open.
type Draft struct {
	tree, baseline *jsonv.Object
	basename       string
	scope          preset.Scope
	history        history
	version        int
	dirty          bool

	stack *preset.Stack
	diags preset.Diagnostics
	// checked is the version the diagnostics describe.
	checked int
}

// Open starts a draft from a loaded tree (the file's JSON object); basename
// is the file name validation reports ("<id>.json"). It parses the tree
// once, so call it in a command.
func Open(tree *jsonv.Object, basename string, scope preset.Scope) *Draft {
	d := &Draft{tree: tree, baseline: tree, basename: basename, scope: scope}
	d.analyze()
	return d
}

// Tree is the current tree (immutable: edit through Apply).
func (d *Draft) Tree() *jsonv.Object { return d.tree }

// Version increases with every change of the tree.
func (d *Draft) Version() int { return d.version }

// Dirty reports whether the tree differs from the one last loaded or saved.
func (d *Draft) Dirty() bool { return d.dirty }

// Stack is the typed view of the current tree (never nil).
func (d *Draft) Stack() *preset.Stack { return d.stack }

// ID is the Preset id the tree parses to.
func (d *Draft) ID() string { return d.stack.ID }

// Scope is the scope the draft validates in.
func (d *Draft) Scope() preset.Scope { return d.scope }

// Diagnostics are the validation diagnostics of the tree as of the last
// check (see Checked).
func (d *Draft) Diagnostics() preset.Diagnostics { return d.diags }

// Checked reports whether the diagnostics describe the current tree; after
// typing in a block they wait for an Install.
func (d *Draft) Checked() bool { return d.checked == d.version }

// Apply changes the tree. The typed view follows at once; an edit of a
// block's text patches that item only and leaves the diagnostics to a
// check (Checked is false until Install).
func (d *Draft) Apply(e Edit) error {
	var next *jsonv.Object
	var err error
	if e.Delete {
		next, err = Delete(d.tree, e.Path)
	} else {
		next, err = Set(d.tree, e.Path, e.Value)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", i18n.T("edit %s", e.Label), err)
	}
	d.history.record(d.tree, e.Label, e.Coalesce)
	old := d.tree
	d.replace(next)
	if !d.patchBlockText(old, e) {
		d.analyze()
	}
	return nil
}

// Undo restores the tree before the latest edit; it returns that edit's
// label, or false when there is nothing to undo.
func (d *Draft) Undo() (string, bool) { return d.travel(d.history.back(d.tree)) }

// Redo re-applies the latest undone edit; it returns its label, or false
// when there is nothing to redo (any new edit clears what could be redone).
func (d *Draft) Redo() (string, bool) { return d.travel(d.history.forward(d.tree)) }

// travel installs a tree from the history.
func (d *Draft) travel(s step, ok bool) (string, bool) {
	if !ok {
		return "", false
	}
	d.replace(s.tree)
	d.analyze()
	return s.label, true
}

// MarkSaved makes tree (the one a save wrote; the user may have edited
// since) the new baseline of Dirty.
func (d *Draft) MarkSaved(tree *jsonv.Object) {
	d.baseline = tree
	d.dirty = !Equal(d.tree, d.baseline)
	d.history.breakRun()
}

// replace installs a new tree.
func (d *Draft) replace(next *jsonv.Object) {
	d.tree = next
	d.version++
	d.dirty = !Equal(d.tree, d.baseline)
}

// analyze parses the whole tree into the typed view and its diagnostics.
func (d *Draft) analyze() {
	a := d.Snapshot().Check()
	d.stack, d.diags, d.checked = a.Stack, a.Diagnostics, a.Version
}

// patchBlockText keeps the typed view current after an edit of one block's
// text without parsing the Preset: the item's Content is the new string.
// It reports false for any other edit, which needs a full parse.
func (d *Draft) patchBlockText(old *jsonv.Object, e Edit) bool {
	text, isText := e.Value.(string)
	if e.Delete || !isText || len(e.Path) != 3 || e.Path[0] != "items" || e.Path[2] != "content" {
		return false
	}
	i, ok := e.Path[1].(int)
	if !ok || i < 0 || i >= len(d.stack.Items) || d.stack.Items[i].Kind != preset.KindBlock {
		return false
	}
	if raw, _ := Get(old, Path{"items", i}); !isObject(raw) {
		return false // setting a key created the object: the item's shape changed
	}
	stack := *d.stack
	stack.Items = append([]preset.Item(nil), d.stack.Items...)
	stack.Items[i].Content = text
	d.stack = &stack
	return true
}

func isObject(v any) bool {
	o, ok := v.(*jsonv.Object)
	return ok && o != nil
}

// Snapshot is a draft's tree at one version, for work done in a command.
type Snapshot struct {
	Tree     *jsonv.Object
	Version  int
	Basename string
	Scope    preset.Scope
}

// Snapshot returns the current tree and what validating it needs.
func (d *Draft) Snapshot() Snapshot {
	return Snapshot{Tree: d.tree, Version: d.version, Basename: d.basename, Scope: d.scope}
}

// Check is the result of validating one version of a draft.
type Check struct {
	Version     int
	Stack       *preset.Stack
	Diagnostics preset.Diagnostics
}

// Check parses and validates the snapshot's tree (pure; a command runs it).
func (s Snapshot) Check() Check {
	stack, diags := preset.ParseValue(s.Tree, s.Basename, preset.ParseOptions{Scope: s.Scope})
	return Check{Version: s.Version, Stack: stack, Diagnostics: diags}
}

// Install takes a check of the current version; a check of an older
// version (the user typed on) is dropped. It reports whether it was taken.
func (d *Draft) Install(c Check) bool {
	if c.Version != d.version || d.checked == d.version {
		return false
	}
	d.stack, d.diags, d.checked = c.Stack, c.Diagnostics, c.Version
	return true
}
