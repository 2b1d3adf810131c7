//go:build unix

package privcache

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether the current user owns the file: a cache
// another user left is foreign.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
