package cachemiss

import (
	"io/fs"
	"syscall"
)

// inodeStamp is a file's inode and change time: a file replaced under the
// same name, or rewritten to the same size and modification time, is
// seen as another.
func inodeStamp(fi fs.FileInfo) (ino, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Ino), st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
