//go:build !linux

package session

import "io/fs"

// inodeStamp: size and modification time stand alone here.
func inodeStamp(fs.FileInfo) (ino, ctime int64) { return 0, 0 }
