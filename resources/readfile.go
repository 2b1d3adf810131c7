package resources

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// errNotRegular is the cause of a read refused because the path is a FIFO,
// socket or device rather than a file.
var errNotRegular = errors.New("not a regular file")

// readRegularFile reads a file the way os.ReadFile does, but never blocks on
// or streams from a special file a hostile checkout may hold where a
// resource is expected: the target is stat'ed first, so a FIFO, socket or
// device (also behind a symlink) is refused with a *fs.PathError wrapping
// errNotRegular without being opened; the open does not wait for a FIFO
// writer should the path be swapped in between, and the descriptor is
// checked again. A directory fails with EISDIR, as reading one does. The
// read stops at the size the file had when it was opened.
func readRegularFile(path string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	case !fi.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	// Size the buffer from stat and read no further: bytes appended while
	// reading are not part of this snapshot.
	var buf bytes.Buffer
	size := fi.Size()
	if size > 0 && int64(int(size)) == size {
		buf.Grow(int(size) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, size)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
