//go:build unix

package resources

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockDir takes an exclusive advisory lock (flock) on dir for one
// check-and-write: a revision check and the rename that follows it, or an
// export target's check and its publication. Every forgebench process and
// goroutine that writes in dir takes it, so two saves that read the same
// revision can no longer both win (each checked, then renamed: the first
// save was silently lost). It waits at most lockWait; a file system that
// cannot lock (some network mounts) gives no lock rather than an error, as
// pi-forge, which shares these files, takes none either.
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return func() {}, nil // the write that follows reports the directory's problem
	}
	fd := int(d.Fd())
	deadline := time.Now().Add(lockWait)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(fd, syscall.LOCK_UN)
				d.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			d.Close()
			return func() {}, nil // no locking here (ENOLCK, EINVAL …)
		}
		if time.Now().After(deadline) {
			d.Close()
			return nil, errDirBusy
		}
		time.Sleep(pause)
	}
}
