package resources

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path with data so that readers see either the
// old bytes or the new ones, never a mix: the data goes to a temporary file
// in the same directory, is fsynced, and is renamed over path; the
// directory is fsynced so the rename survives a crash. On any error the
// temporary file is removed and path is untouched. Stale temporary files
// of killed writers in the directory are removed first (createTemp).
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, data, perm)
	if err != nil {
		return fmt.Errorf("write a temporary file for %s: %w", path, err)
	}
	if err = renameHook(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	syncDir(dir) // best effort: not every filesystem supports directory fsync
	return nil
}

// renameHook is os.Rename; tests replace it to simulate a process killed
// between writing the temporary file and renaming it.
var renameHook = os.Rename
