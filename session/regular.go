package session

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular reports a session path that is not a regular file: a FIFO,
// socket, device or directory, also behind a symbolic link. Such paths are
// refused before they are opened for reading, so nothing blocks on a FIFO
// without a writer or streams from /dev/zero. (Standard input, where a
// command accepts "-", is read as a stream through Read instead.)
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is the refusal of one non-regular path; it matches
// ErrNotRegular with errors.Is.
type NotRegularError struct {
	Path string
	// Kind describes what the path is ("named pipe", "character device" …).
	Kind string
}

// Error says what the path is and that only regular files are read.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is a %s, not a regular file; only regular files are read", e.Path, e.Kind)
}

// Is matches ErrNotRegular.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// FileKind names the type of a file for messages ("named pipe (FIFO)",
// "character device", "directory", "symbolic link" …).
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	if m.IsRegular() {
		return "regular file"
	}
	return "special file"
}

// openRegular opens path for reading only when it is a regular file. The
// target is stat'ed first (following symbolic links), so a device or FIFO
// is never opened at all; the open itself is non-blocking, and the opened
// descriptor is checked again in case the path was swapped in between. The
// returned FileInfo is the descriptor's, taken at open: callers bound every
// read by its Size.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Kind: FileKind(fi.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Kind: FileKind(fi.Mode())}
	}
	return f, fi, nil
}

// sizedReader reads f from its start up to the size it had at open (a
// section reader: it also seeks and reads at offsets, which the long-line
// measurement uses). Bytes appended later are not part of the snapshot.
func sizedReader(f *os.File, fi fs.FileInfo) *io.SectionReader {
	return io.NewSectionReader(f, 0, fi.Size())
}

// maxSettingsBytes bounds a settings file read for the session directory.
const maxSettingsBytes = 16 << 20

// ReadRegularFile reads a small file whole (settings, role files,
// pi-subagent state) the way os.ReadFile does, but refuses what is not a
// regular file — a FIFO or a symlink to /dev/zero would block or stream
// forever — with a *NotRegularError, never opening it; refuses a file
// larger than limit; and reads no further than the size at open. A
// missing file fails with an error matching fs.ErrNotExist.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d-byte limit", path, fi.Size(), limit)
	}
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(sizedReader(f, fi), data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data[:n], nil
}
