// Package regfile reads files that a hostile checkout or a careless path
// may have replaced with something that is not a file: a FIFO (opening it
// blocks until a writer comes), a symbolic link to /dev/zero (reading it
// never ends) or another device. It is a leaf (standard library only), so
// every package that reads a file by path — the model catalog, the settings
// file, the CLI's FILE arguments, the resource library — can share it
// without an import cycle.
//
// Only regular files are opened: the target is stat'ed first (following
// symbolic links), so a FIFO or device is refused without being opened; the
// open is non-blocking, the descriptor is checked again in case the path
// was swapped in between, and a read stops at the size the file had when it
// was opened.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is matched (errors.Is) by the refusal of a path that is not
// a regular file.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is the refusal of one path that is a FIFO, socket,
// device or directory, also behind a symbolic link.
type NotRegularError struct {
	Path string
	// Kind describes what the path is ("named pipe (FIFO)", "character
	// device" …).
	Kind string
}

// Error says what the path is and that only regular files are read.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is a %s, not a regular file; only regular files are read", e.Path, e.Kind)
}

// Is matches ErrNotRegular.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// ErrTooLarge is matched (errors.Is) by the refusal of a file above a
// caller's size limit.
var ErrTooLarge = errors.New("file too large")

// TooLargeError is the refusal of a file (or stream) above a size limit.
type TooLargeError struct {
	Path        string
	Size, Limit int64
}

// Error names the size and the limit.
func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: more than the %s limit", e.Path, Bytes(e.Limit))
	}
	return fmt.Sprintf("%s: %s, more than the %s limit", e.Path, Bytes(e.Size), Bytes(e.Limit))
}

// Is matches ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Kind names the type of a file for messages ("named pipe (FIFO)",
// "character device", "directory", "symbolic link" …).
func Kind(m fs.FileMode) string {
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
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}

// Open opens path for reading only when it is a regular file, without
// blocking, and returns the descriptor's FileInfo taken at open: callers
// bound every read by its Size. A path that is not a regular file fails
// with a *NotRegularError; a missing one with an error matching
// fs.ErrNotExist.
func Open(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
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
	if !fi.Mode().IsRegular() { // swapped between the stat and the open
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	return f, fi, nil
}

// Section is a regular file opened by OpenSection: an io.SectionReader
// that ends at the size the file had when it was opened (or at the
// caller's bound, when smaller), so bytes appended later — or a file that
// grew since it was listed — are never read.
type Section struct {
	*io.SectionReader
	// Info is the descriptor's FileInfo, taken at open.
	Info fs.FileInfo
	f    *os.File
}

// Close closes the file.
func (s *Section) Close() error { return s.f.Close() }

// OpenSection opens path as Open does — a regular file only, without
// blocking, its type checked again on the open descriptor — and bounds
// every read by the size at open and by limit (limit > 0: a listing's
// size, a header window). It is the one way to open a path found by
// listing a directory: the path may have been swapped for a FIFO or a
// device since it was listed.
func OpenSection(path string, limit int64) (*Section, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if limit > 0 && size > limit {
		size = limit
	}
	return &Section{SectionReader: io.NewSectionReader(f, 0, size), Info: fi, f: f}, nil
}

// Read reads a regular file whole, up to the size it had when it was
// opened, like os.ReadFile for files that are what they claim. A file
// larger than limit (limit > 0) fails with a *TooLargeError before any of
// it is read; what Open refuses fails as Open does.
func Read(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := fi.Size()
	if limit > 0 && size > limit {
		return nil, &TooLargeError{Path: path, Size: size, Limit: limit}
	}
	if int64(int(size)) != size {
		return nil, &TooLargeError{Path: path, Size: size, Limit: limit}
	}
	data := make([]byte, size)
	n, err := io.ReadFull(io.NewSectionReader(f, 0, size), data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data[:n], nil // a file truncated while reading gives what is left
}

// ReadStream reads r to its end, failing with a *TooLargeError (naming
// what) as soon as more than limit bytes arrive: standard input or a pipe
// can be endless (`< /dev/zero`).
func ReadStream(r io.Reader, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: what, Size: -1, Limit: limit}
	}
	return data, nil
}

// Bytes formats a byte count for messages: "512 bytes", "64 MiB".
func Bytes(n int64) string {
	const (
		kib = 1 << 10
		mib = 1 << 20
		gib = 1 << 30
	)
	switch {
	case n >= gib && n%gib == 0:
		return fmt.Sprintf("%d GiB", n/gib)
	case n >= mib && n%mib == 0:
		return fmt.Sprintf("%d MiB", n/mib)
	case n >= mib:
		return fmt.Sprintf("%.1f MiB", float64(n)/mib)
	case n >= kib && n%kib == 0:
		return fmt.Sprintf("%d KiB", n/kib)
	}
	return fmt.Sprintf("%d bytes", n)
}
