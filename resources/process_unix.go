//go:build unix

package resources

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the given pid exists on this
// host (signal 0 checks without delivering anything; EPERM means it exists
// but belongs to another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
