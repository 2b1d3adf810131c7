package resources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockWait bounds how long a write waits for another writer in the same
// directory (lockDir).
var lockWait = 10 * time.Second

// errDirBusy is the cause of a write given up after lockWait.
var errDirBusy = errors.New("another forgebench write in this directory did not finish in time; try again")

// ErrTargetChanged reports a target that changed between the caller's
// check and the moment the new bytes would have replaced it.
var ErrTargetChanged = errors.New("the file changed while it was being replaced")

// WriteFileExclusive publishes data at path only if nothing is there: the
// bytes go to a fsynced temporary file in the same directory, which is then
// renamed with RENAME_NOREPLACE (Linux) or hard-linked (elsewhere, or where
// the file system lacks renameat2), both of which refuse an existing name
// atomically. It fails with an error matching fs.ErrExist when the name is
// taken — also by a file that appeared after the caller looked — and never
// replaces or follows anything there.
func WriteFileExclusive(path string, data []byte, perm fs.FileMode) error {
	return createExclusive(path, data, perm)
}

// ReplaceFile replaces the file at path with data atomically, after
// check accepted what is there now (an Lstat: check sees a symbolic link
// as a link). The check and the replacement run under the directory's
// write lock, so forgebench writers do not interleave; on Linux the
// replacement is an atomic exchange, and when the file it displaced is not
// the one check saw (another program replaced it in between) the exchange
// is undone and ErrTargetChanged returned. A path that does not exist is
// created as WriteFileExclusive does; check then gets nil.
func ReplaceFile(path string, data []byte, perm fs.FileMode, check func(fs.FileInfo) error) (err error) {
	dir := filepath.Dir(path)
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := check(nil); err != nil {
			return err
		}
		return createExclusive(path, data, perm)
	case err != nil:
		return err
	}
	if err := check(fi); err != nil {
		return err
	}
	tmp, err := writeTemp(dir, data, perm)
	if err != nil {
		return fmt.Errorf("write a temporary file for %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	switch xerr := renameExchange(tmp, path); {
	case xerr == nil:
		// tmp now holds what path held: is it what check accepted?
		displaced, lerr := os.Lstat(tmp)
		if lerr != nil || !os.SameFile(fi, displaced) {
			if back := renameExchange(tmp, path); back != nil {
				return fmt.Errorf("%w, and restoring it failed: %v", ErrTargetChanged, back)
			}
			return ErrTargetChanged
		}
		os.Remove(tmp)
	case errors.Is(xerr, errNoAtomicRename):
		if err = renameHook(tmp, path); err != nil {
			return fmt.Errorf("rename into %s: %w", path, err)
		}
	default:
		return fmt.Errorf("replace %s: %w", path, xerr)
	}
	syncDir(dir)
	return nil
}

// writeTemp writes data to a new fsynced temporary file in dir with mode
// perm and returns its path.
func writeTemp(dir string, data []byte, perm fs.FileMode) (name string, err error) {
	f, err := createTemp(dir)
	if err != nil {
		return "", err
	}
	name = f.Name()
	if _, err = f.Write(data); err == nil {
		if err = f.Chmod(perm); err == nil {
			err = f.Sync()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}
