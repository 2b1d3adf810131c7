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
	tmp, err := createTemp(dir)
	if err != nil {
		return fmt.Errorf("create temporary file for %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp.Name(), err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err = renameHook(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // best effort: not every filesystem supports directory fsync
		d.Close()
	}
	return nil
}

// renameHook is os.Rename; tests replace it to simulate a process killed
// between writing the temporary file and renaming it.
var renameHook = os.Rename
