package jsregex

import (
	"strings"
	"testing"
	"time"
)

// FuzzCompile: any pattern and flags either compile or fail with V8's
// "Invalid …" wording, never panic; a compiled pattern replaces within its
// timeout, and a replace without a match leaves the text as it was.
func FuzzCompile(f *testing.F) {
	f.Add(`(\w+)@(\w+)`, "g", "$2 at $1 $<x> $$ $0 $&", "mail a@b and c@d")
	f.Add(`(?<y>\d+)`, "gu", "[$<y>]$`$'", "x12y😀34")
	f.Add(`^|$`, "gm", "#", "a\nb\r\nc")
	f.Add(`[^]|[]|\b|\B|.`, "gis", "$99$10$1", "Aé\u2028")
	f.Add(`a{2,}?|\cJ|\x4|\u{41}|\k<a>|\p{Lu}`, "iu", "", "aaa\nſK")
	f.Fuzz(func(t *testing.T, pattern, flags, replace, text string) {
		saved := MatchTimeout
		MatchTimeout = 200 * time.Millisecond
		defer func() { MatchTimeout = saved }()
		re, err := Compile(pattern, flags)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid") {
				t.Fatalf("unexpected error form: %v", err)
			}
			return
		}
		res, err := re.Replace(text, nil, func(s []rune, m *Match) string { return re.Substitute(s, m, replace) })
		if err != nil {
			return // match timeout
		}
		if res.Matches < 0 || (!re.Global && res.Matches > 1) {
			t.Fatalf("matches = %d (global %v)", res.Matches, re.Global)
		}
		if res.Matches == 0 && res.Text != text {
			t.Fatalf("text changed without a match: %q → %q", text, res.Text)
		}
		head, body := UTF16Split(text, 7)
		if head+body != text {
			t.Fatalf("UTF16Split(%q) = %q + %q", text, head, body)
		}
	})
}
