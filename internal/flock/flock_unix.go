//go:build unix

package flock

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes flock(2) on f without waiting. Separate opens of one file
// exclude each other, also within one process.
func tryLock(f *os.File) (release func(), state lockState) {
	fd := int(f.Fd())
	err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return func() { syscall.Flock(fd, syscall.LOCK_UN) }, locked
	case errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR):
		return nil, busy
	default:
		return nil, unsupported // ENOLCK, EINVAL …
	}
}
