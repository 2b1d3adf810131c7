//go:build !linux

package cachemiss

import "io/fs"

// inodeStamp: size and modification time identify a version here.
func inodeStamp(fs.FileInfo) (ino, ctime int64) { return 0, 0 }
