package resources

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// errNotRegular is the cause of a read refused because the path is a FIFO,
// socket or device rather than a file.
var errNotRegular = errors.New("not a regular file")

// readRegularFile reads a file the way os.ReadFile does, but never blocks on
// or streams from a special file a hostile checkout may hold where a
// resource is expected: the open does not wait for a FIFO writer, and a
// FIFO, socket or device (also behind a symlink) is refused with a
// *fs.PathError wrapping errNotRegular. A directory fails with EISDIR, as
// reading one does.
func readRegularFile(path string) ([]byte, error) {
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
	// Size the buffer from stat like os.ReadFile; ReadFrom still reads to
	// EOF if the file grew.
	var buf bytes.Buffer
	if size := fi.Size(); size > 0 && int64(int(size)) == size {
		buf.Grow(int(size) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
