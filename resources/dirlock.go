package resources

import (
	"os"

	"github.com/forgebench/forgebench/internal/flock"
)

// lockDir takes the write lock of dir for one check-and-write: a revision
// check and the rename that follows it, or an export target's check and its
// publication. Every forgebench process and goroutine that writes in dir
// takes it, so two saves that read the same revision can no longer both
// win (each checked, then renamed: the first save was silently lost). It
// waits at most lockWait (then errDirBusy). Where the system cannot lock a
// directory (some network mounts; Windows, should LockFileEx refuse the
// directory handle) it still serialises this process's writers; pi-forge,
// which shares these files, takes no lock at all.
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return func() {}, nil // the write that follows reports the directory's problem
	}
	release, err := flock.Lock(d, lockWait)
	if err != nil {
		d.Close()
		return nil, errDirBusy
	}
	return func() { release(); d.Close() }, nil
}
