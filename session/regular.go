package session

import (
	"io"
	"io/fs"
	"os"

	"github.com/forgebench/forgebench/internal/regfile"
)

// ErrNotRegular reports a session path that is not a regular file: a FIFO,
// socket, device or directory, also behind a symbolic link. Such paths are
// refused before they are opened for reading, so nothing blocks on a FIFO
// without a writer or streams from /dev/zero. (Standard input, where a
// command accepts "-", is read as a stream through Read instead.) It is
// internal/regfile's, so one errors.Is test serves every reader.
var ErrNotRegular = regfile.ErrNotRegular

// NotRegularError is the refusal of one non-regular path; it matches
// ErrNotRegular with errors.Is.
type NotRegularError = regfile.NotRegularError

// FileKind names the type of a file for messages ("named pipe (FIFO)",
// "character device", "directory", "symbolic link" …).
func FileKind(m fs.FileMode) string { return regfile.Kind(m) }

// openRegular opens path for reading only when it is a regular file, never
// blocking on a FIFO (regfile.Open). The returned FileInfo is the
// descriptor's, taken at open: callers bound every read by its Size.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	return regfile.Open(path)
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
// pi-subagent state) the way os.ReadFile does, through regfile.Read:
// what is not a regular file — a FIFO or a symlink to /dev/zero would
// block or stream forever — is refused with a *NotRegularError without
// being opened for a read; a file larger than limit with a
// *regfile.TooLargeError; and nothing past the size at open is read. A
// missing file fails with an error matching fs.ErrNotExist.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	return regfile.Read(path, limit)
}
