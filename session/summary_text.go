package session

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// The text of a summary read from a raw message (summary_raw.go): JSON
// strings decoded as encoding/json decodes them, fed to a clipper or kept
// up to a byte budget.

// summaryText receives a summary's text rune by rune. Folding, it folds
// and clips it as it comes (sanitize.Clipper) and wants no more once the
// clip is decided; else it keeps the text itself up to max bytes, cut
// only between runes (cut records that something was left out).
type summaryText struct {
	folding bool
	clip    sanitize.Clipper
	b       []byte
	max     int
	cut     bool
}

// more reports whether more of the text can still change the result.
func (t *summaryText) more() bool {
	if t.folding {
		return t.clip.More()
	}
	return !t.cut
}

func (t *summaryText) rune(r rune) {
	switch {
	case t.folding:
		t.clip.WriteRune(r)
	case t.cut:
	case len(t.b)+utf8.RuneLen(r) > t.max:
		t.cut = true
	case r < utf8.RuneSelf:
		t.b = append(t.b, byte(r))
	default:
		t.b = utf8.AppendRune(t.b, r)
	}
}

func (t *summaryText) lit(s string) {
	for _, r := range s {
		t.rune(r)
	}
}

// raw writes JSON text as it is in the file (a json.RawMessage); kept, it
// is cut only before a byte that starts a character.
func (t *summaryText) raw(v RawValue) {
	if t.folding {
		t.clip.Write(v)
		return
	}
	if t.cut {
		return
	}
	room := t.max - len(t.b)
	if len(v) <= room {
		t.b = append(t.b, v...)
		return
	}
	k := room
	for back := 0; k > 0 && back < utf8.UTFMax && !utf8.RuneStart(v[k]); back++ {
		k--
	}
	t.b = append(t.b, v[:k]...)
	t.cut = true
}

// str writes a JSON string value decoded as encoding/json decodes it
// (invalid UTF-8 and unpaired surrogates become U+FFFD); anything but a
// string writes nothing, as a field left empty.
func (t *summaryText) str(v RawValue) {
	if len(v) < 2 || v[0] != '"' {
		return
	}
	s := v[1 : len(v)-1]
	for r := 0; r < len(s) && t.more(); {
		c := s[r]
		if t.folding && c != '\\' {
			// A run without escapes is its own bytes (invalid ones are
			// U+FFFD to the Clipper, as to the decoder).
			end := bytes.IndexByte(s[r:], '\\')
			if end < 0 {
				end = len(s) - r
			}
			t.clip.Write(s[r : r+end])
			r += end
			continue
		}
		switch {
		case c == '\\' && r+1 < len(s):
			switch s[r+1] {
			case 'b':
				t.rune('\b')
			case 'f':
				t.rune('\f')
			case 'n':
				t.rune('\n')
			case 'r':
				t.rune('\r')
			case 't':
				t.rune('\t')
			case 'u':
				rr := hex4(s[r+2:])
				r += 6
				if utf16.IsSurrogate(rr) {
					rr1 := rune(-1)
					if r+1 < len(s) && s[r] == '\\' && s[r+1] == 'u' {
						rr1 = hex4(s[r+2:])
					}
					if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
						t.rune(dec)
						r += 6
						continue
					}
					rr = unicode.ReplacementChar
				}
				t.rune(rr)
				continue
			default: // '"', '\\', '/'
				t.rune(rune(s[r+1]))
			}
			r += 2
		case c < utf8.RuneSelf:
			t.rune(rune(c))
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			t.rune(rr) // an invalid byte is U+FFFD
			r += size
		}
	}
	if !t.folding && !t.cut && len(t.b) >= t.max {
		t.cut = true // conservative: the text may have gone on
	}
}

// hex4 reads four hex digits (the scanner validated them), -1 if absent.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
