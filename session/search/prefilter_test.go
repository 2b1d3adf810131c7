package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// candidates lists every candidate the cursor finds in d.
func candidates(pf *prefilter, d []byte) []int {
	var c cursor
	c.reset(pf, d, false)
	var out []int
	for from := 0; ; {
		k := c.candidate(from)
		if k < 0 {
			return out
		}
		out = append(out, k)
		from = k + 1
	}
}

// TestFixedLiteralAgreesWithTheGenericCheck: a literal of characters with
// one-byte forms only is checked byte by byte (fixedAt), and finds exactly
// the candidates of the generic check, also where its characters are
// written escaped, in the other case or as look-alikes.
func TestFixedLiteralAgreesWithTheGenericCheck(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	alphabet := []rune("abcxyzABCXYZ 019-_.:")
	for round := range 3000 {
		q := make([]rune, 1+rnd.IntN(6))
		for i := range q {
			q[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		fold := rnd.IntN(2) == 0
		pf := newPrefilter(string(q), fold)
		if pf.fixed == nil {
			t.Fatalf("%q (fold %v) is not fixed", string(q), fold)
		}
		generic := *pf
		generic.fixed = nil
		var b strings.Builder
		for range 1 + rnd.IntN(12) {
			switch rnd.IntN(6) {
			case 0:
				b.WriteString("noise ")
			case 1:
				b.WriteString(`\\ \" é ✓ `)
			}
			// The literal, each character written plain, in another
			// case or escaped; sometimes cut short or changed.
			for i, r := range q {
				if i > 0 && rnd.IntN(12) == 0 {
					break
				}
				switch rnd.IntN(8) {
				case 0:
					fmt.Fprintf(&b, `\u%04x`, r)
				case 1:
					fmt.Fprintf(&b, `\u%04X`, r)
				case 2:
					b.WriteString(strings.ToUpper(string(r)))
				case 3:
					b.WriteString(strings.ToLower(string(r)))
				case 4:
					if rnd.IntN(3) == 0 {
						b.WriteString("\\")
					}
					b.WriteRune(alphabet[rnd.IntN(len(alphabet))])
				default:
					b.WriteRune(r)
				}
			}
		}
		d := []byte(b.String())
		got, want := candidates(pf, d), candidates(&generic, d)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %q (fold %v) in %q: fixed %v, generic %v", round, string(q), fold, d, got, want)
		}
	}
}

// TestWhichLiteralsAreFixed: only characters no writer escapes, whose case
// forms are ASCII too, make a literal fixed.
func TestWhichLiteralsAreFixed(t *testing.T) {
	for _, c := range []struct {
		q     string
		fold  bool
		fixed bool
	}{
		{"branch tree compaction", false, true},
		{"branch tree compaction", true, true},
		{"quetzal overflow 42", true, true},
		{"kelvin", false, true},
		{"kelvin", true, false}, // K (U+212A) folds to k
		{"ask", true, false},    // ſ (U+017F) folds to s
		{"a/b", false, false},   // "\/"
		{"a<b", false, false},   // Go escapes <
		{`say "hi"`, false, false},
		{"naïve", false, false},
	} {
		if got := newPrefilter(c.q, c.fold).fixed != nil; got != c.fixed {
			t.Errorf("%q fold %v: fixed %v, want %v", c.q, c.fold, got, c.fixed)
		}
	}
}
