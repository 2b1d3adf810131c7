package session

import (
	"bytes"
	"io"
	"time"
)

// ownWriteSlack is how far a file's modification time may lie from the
// timestamp forgebench wrote into its last entry for that modification to
// count as forgebench's own: the timestamp is taken just before the write
// (a file system with one-second times may show the write earlier).
const ownWriteSlack = 2 * time.Second

// lastWriteIsOwn reports whether the most recent modification of the file
// (f, size and mtime as stat'ed under the append lock) was forgebench's
// own append, so the live window does not apply to it: the file ends
// exactly with the line of its last entry (nothing was appended after it,
// not even a torn line), that entry and every other entry stamped within
// window of the modification carry forgebench's id mark (appendmark.go;
// Pi's ids do not), and the last entry's timestamp matches the
// modification time. Anything else that wrote within the window — Pi's
// next message, a partial line, a rewrite long after — fails one of these,
// and the window still applies.
func lastWriteIsOwn(f io.ReaderAt, s *Session, size int64, mtime time.Time, window time.Duration) bool {
	if len(s.Entries) == 0 {
		return false
	}
	last := &s.Entries[len(s.Entries)-1]
	if !WrittenByForgebench(last) {
		return false
	}
	tail := int64(len(last.Raw)) + 1
	if tail > size {
		return false
	}
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, size-tail); err != nil {
		return false
	}
	if buf[tail-1] != '\n' || !bytes.Equal(buf[:tail-1], last.Raw) {
		return false
	}
	written, ok := entryTime(last)
	if !ok || mtime.Sub(written) > ownWriteSlack || written.Sub(mtime) > ownWriteSlack {
		return false
	}
	for i := len(s.Entries) - 2; i >= 0; i-- {
		e := &s.Entries[i]
		at, ok := entryTime(e)
		if ok && mtime.Sub(at) >= window {
			break // written before the window: not what made the file look live
		}
		if !WrittenByForgebench(e) {
			return false
		}
	}
	return true
}

// entryTime parses an entry's ISO timestamp.
func entryTime(e *Entry) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, e.Timestamp)
	return t, err == nil
}
