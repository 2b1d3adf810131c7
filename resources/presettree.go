package resources

import "github.com/forgebench/forgebench/engine/jsonv"

// PresetTreeBytes is how a Preset edited as its file's JSON tree is
// written: JSON.stringify(tree, null, 2) + "\n", the file's own keys in the
// user's order. pi-forge's web editor saves the normalized Preset instead
// (serializePromptStack, which drops top-level keys it does not know,
// spec §1.3); forgebench edits the file itself, as a raw-text edit does,
// so unknown keys survive.
func PresetTreeBytes(tree *jsonv.Object) []byte {
	return []byte(jsonv.StringifyIndent(tree, "  ") + "\n")
}

// CreatePresetTree writes a new Preset file from a JSON tree (exclusive
// create; ErrConflict when the id is taken in that scope). id must be the
// id the tree parses to.
func CreatePresetTree(ws Workspace, scope Scope, id string, tree *jsonv.Object) (WriteResult, error) {
	return CreateFile(ws, KindPreset, scope, id, PresetTreeBytes(tree))
}

// SavePresetTree replaces Preset id of scope with tree when the file still
// has expectedRevision (the SourceRevision the user loaded).
func SavePresetTree(ws Workspace, scope Scope, id string, tree *jsonv.Object, expectedRevision string) (WriteResult, error) {
	return SaveFile(ws, KindPreset, scope, id, PresetTreeBytes(tree), expectedRevision)
}

// ReadImportFile reads a file the user names to import (a regular file,
// read with the library's size limit). Its errors are *fs.PathError,
// which name the operation and the file.
func ReadImportFile(path string) ([]byte, error) {
	return readRegularFile(path)
}
