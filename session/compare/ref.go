package compare

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadRef is wrapped by ParseRef's errors.
var ErrBadRef = errors.New("bad entry reference")

// Ref names one side of a comparison: FILE#ENTRY (ENTRY after the last
// "#"), FILE alone (the session's default leaf, its last entry) or #ENTRY
// (an entry of the other side's file).
type Ref struct {
	// Raw is the reference as written.
	Raw string
	// File is the session argument: a file, a session id or a unique
	// prefix of one ("" for #ENTRY).
	File string
	// Entry is the entry id ("" = the default leaf).
	Entry string
}

// SameFile reports a #ENTRY reference, which names an entry of the other
// side's session.
func (r Ref) SameFile() bool { return r.File == "" }

// ParseRef parses FILE#ENTRY, FILE or #ENTRY. The entry is what follows
// the last "#", as in payload references (session:FILE#ENTRY); a file
// whose name holds "#" is written with a trailing "#ENTRY". Empty
// references, empty entries after "#" and control characters are errors
// wrapping ErrBadRef.
func ParseRef(s string) (Ref, error) {
	r := Ref{Raw: s}
	if strings.TrimSpace(s) == "" {
		return r, fmt.Errorf("%w: empty; want FILE#ENTRY, FILE or #ENTRY", ErrBadRef)
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return r, fmt.Errorf("%w: %q holds a control character", ErrBadRef, s)
		}
	}
	r.File = s
	if k := strings.LastIndexByte(s, '#'); k >= 0 {
		r.File, r.Entry = s[:k], s[k+1:]
		if r.Entry == "" {
			return r, fmt.Errorf("%w: %q: empty entry after #", ErrBadRef, s)
		}
	}
	return r, nil
}

// String writes the reference back in its canonical form.
func (r Ref) String() string {
	if r.Entry == "" {
		return r.File
	}
	return r.File + "#" + r.Entry
}
