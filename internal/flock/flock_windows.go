//go:build windows

package flock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffsetHigh places the locked byte at 2^62, far past the end of any
// real file: Windows byte-range locks are mandatory, and a lock on the
// file's own bytes would make Pi's reads of a session fail while
// forgebench appends.
const lockOffsetHigh = 1 << 30

// tryLock takes a LockFileEx lock of one byte of f without waiting.
// Separate handles exclude each other, also within one process.
func tryLock(f *os.File) (release func(), state lockState) {
	h := windows.Handle(f.Fd())
	err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0,
		&windows.Overlapped{OffsetHigh: lockOffsetHigh})
	switch {
	case err == nil:
		return func() { windows.UnlockFileEx(h, 0, 1, 0, &windows.Overlapped{OffsetHigh: lockOffsetHigh}) }, locked
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING):
		return nil, busy
	default:
		return nil, unsupported // a directory handle, a file system without locks …
	}
}
