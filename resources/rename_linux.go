package resources

import (
	"errors"

	"golang.org/x/sys/unix"
)

// errNoAtomicRename reports that the platform or file system has no
// renameat2 flag asked for; callers fall back to link(2) or rename(2).
var errNoAtomicRename = errors.New("renameat2 flag not supported")

// renameNoReplace renames oldpath to newpath only if newpath does not
// exist (RENAME_NOREPLACE); an existing newpath fails with EEXIST.
func renameNoReplace(oldpath, newpath string) error {
	return renameat2(oldpath, newpath, unix.RENAME_NOREPLACE)
}

// renameExchange swaps the two names atomically (RENAME_EXCHANGE).
func renameExchange(a, b string) error {
	return renameat2(a, b, unix.RENAME_EXCHANGE)
}

func renameat2(oldpath, newpath string, flags uint) error {
	err := unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, flags)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoAtomicRename
	}
	return err
}
