package common

import (
	"os"
	"time"
)

// FileStamp is what a file looked like at one stat: whether it existed,
// its size and its modification time. Panels keep stamps to tell, in a
// command, whether a file changed since they read or wrote it.
type FileStamp struct {
	Path    string
	Exists  bool
	Size    int64
	ModTime time.Time
}

// StampOf stats path now (following symbolic links); a path that cannot
// be stat'ed is stamped as missing. It does IO: call it from a command.
func StampOf(path string) FileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return FileStamp{Path: path}
	}
	return FileStamp{Path: path, Exists: true, Size: fi.Size(), ModTime: fi.ModTime()}
}

// Same reports whether the file still looks as stamped (stats it now).
func (s FileStamp) Same() bool {
	now := StampOf(s.Path)
	return now.Exists == s.Exists && now.Size == s.Size && now.ModTime.Equal(s.ModTime)
}
