package session

import (
	"errors"
	"fmt"
	"io"
)

// ErrFileTooLarge refuses a session file above the caller's limit
// (ReadFileBytes).
var ErrFileTooLarge = errors.New("session file is above the limit")

// FileBytes is one session file's bytes, held for a caller that decodes
// the lines itself (ParseEntryLine) and may then make a Session of them
// (Assemble): a file of a megabyte or more is mapped read-only, as the
// reader maps it (no copy, and no private memory: on a small VM the fresh
// pages of a copy cost more than decoding it), a smaller one is read into
// the caller's buffer.
type FileBytes struct {
	// Data is the file's bytes up to its size at open.
	Data []byte
	m    *mapping
}

// Mapped reports whether Data is a mapping rather than the caller's
// buffer.
func (b *FileBytes) Mapped() bool { return b.m != nil }

// Shrunk reports whether a mapped file is now shorter than when it was
// mapped: what lay past its new end reads as zeros. Ask after decoding.
func (b *FileBytes) Shrunk() bool { return b.m.shrunk() }

// ReadFileBytes holds the regular file at path: mapped when large, else
// read into buf (grown when too short; the buffer is returned for the
// next file). Decoding a mapped file must run under GuardFaults, as every
// reader of a mapped session does. A file above maxBytes fails with
// ErrFileTooLarge, one that shrank while it was read with ErrFileChanged;
// neither was read.
func ReadFileBytes(path string, maxBytes int64, buf []byte) (FileBytes, []byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return FileBytes{}, buf, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	size := fi.Size()
	if size > maxBytes {
		return FileBytes{}, buf, fmt.Errorf("%s: %w", path, ErrFileTooLarge)
	}
	if data, m, ok := mapIfLarge(f, fi); ok {
		return FileBytes{Data: data, m: m}, buf, nil
	}
	if int64(cap(buf)) < size {
		buf = make([]byte, size+size/4)
	}
	data := buf[:size]
	if _, err := io.ReadFull(sizedReader(f, fi), data); err != nil {
		return FileBytes{}, buf, fmt.Errorf("%s: %w", path, ErrFileChanged)
	}
	return FileBytes{Data: data}, buf, nil
}

// Assemble builds the Session the reader gives for a file of the current
// format whose lines the caller decoded with ParseEntryLine: header is
// the first line's entry, entries the later ones in file order (extra
// "session" lines left out). The session takes entries and the file's
// bytes they point into (a buffer must then stay as it is; a mapping is
// the session's to keep), and indexes them as the reader does: ids (the
// last of duplicates wins), parents, labels, the name. Its Diagnostics
// count no skipped lines: the caller skipped them. A header of an older
// format, which the reader migrates, is refused.
func Assemble(path string, file FileBytes, header *Entry, entries []Entry) (*Session, error) {
	if header.NotObject || header.Type != TypeSession || !header.HasID {
		return nil, fmt.Errorf("assemble %s: %w", path, ErrNotSession)
	}
	a := newAssembler(0)
	a.haveFirst = true
	a.s.Header = HeaderOf(header)
	if !(a.s.Header.FileVersion >= CurrentVersion) {
		return nil, fmt.Errorf("assemble %s: format version %v needs migrating", path, a.s.Header.FileVersion)
	}
	a.s.Entries = entries
	s, err := a.finish(int64(len(file.Data)))
	if err != nil {
		return nil, fmt.Errorf("assemble %s: %w", path, err)
	}
	s.Path, s.mapping = path, file.m
	return s, nil
}
