package resources

import (
	"path/filepath"
	"syscall"
)

// maxNameBytes is the longest file name the file system holding dir
// accepts, from statfs of dir or its nearest existing ancestor (255 on most
// Linux file systems, less on some, e.g. 143 on eCryptfs).
func maxNameBytes(dir string) int {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err == nil {
			if st.Namelen > 0 {
				return int(st.Namelen)
			}
			return defaultMaxNameBytes
		}
		if parent := filepath.Dir(d); parent == d {
			return defaultMaxNameBytes
		}
	}
}
