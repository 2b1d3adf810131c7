//go:build !linux

package resources

import "errors"

// errNoAtomicRename reports that the platform has no renameat2; callers
// fall back to link(2) or rename(2).
var errNoAtomicRename = errors.New("renameat2 not available")

func renameNoReplace(oldpath, newpath string) error { return errNoAtomicRename }

func renameExchange(a, b string) error { return errNoAtomicRename }
