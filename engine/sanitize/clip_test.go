package sanitize

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// clipByFolding is Clip's definition: Fold the whole text, cut to n runes.
func clipByFolding(s string, n int) string {
	out := Fold(s)
	if utf8.RuneCountInString(out) <= n {
		return out
	}
	runes := []rune(out)
	return string(runes[:max(0, n-1)]) + "…"
}

var clipSeeds = []string{
	"", "x", "abc", "  lead and trail  ", "a\n\n  b\tc", "日本語テキスト", "wörd\u00a0nbsp\u3000ideo",
	"\x1b[31mred\x1b[0m", "a\rb", "\xff\xfe", "a\u202eb", "\u0085nel", "x\u2028y", "ends with …",
	strings.Repeat("word ", 100), strings.Repeat(" \t\n", 50) + "z", "\ufffd literal",
	"a \u00a0b", "a  b", "a \tb", " a", "a ", "a \u2028b", "x \u3000", "a b\u00a0", "a \x7fb", "日 本  語",
}

func TestClipAgreesWithFolding(t *testing.T) {
	for _, s := range clipSeeds {
		for _, n := range []int{-1, 0, 1, 2, 3, 5, 12, 80, 240, 1000} {
			if got, want := Clip(s, n), clipByFolding(s, n); got != want {
				t.Errorf("Clip(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}

// TestClipReadsOnlyWhatItKeeps: clipping a long plain text to a line
// costs about the line, not the text (a tree clips every entry's text).
func TestClipReadsOnlyWhatItKeeps(t *testing.T) {
	long := strings.Repeat("const v = parse(\"héllo\", {depth: 3});\t// 日本\n", 1<<18) // ~12 MB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out := Clip(long, 80)
	runtime.ReadMemStats(&after)
	if utf8.RuneCountInString(out) != 80 || !strings.HasSuffix(out, "…") {
		t.Fatalf("Clip = %q", out)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("Clip of a %d MB text to 80 runes allocated %d KB", len(long)>>20, n>>10)
	}
}

func FuzzClip(f *testing.F) {
	for _, s := range clipSeeds {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 300
		if got, want := Clip(s, n), clipByFolding(s, n); got != want {
			t.Errorf("Clip(%q, %d) = %q, want %q", s, n, got, want)
		}
	})
}

// TestClipKeepsFoldedTextUncopied: a text that is already folded is
// clipped without a copy, so clipping a summary again for a narrower
// column costs nothing but the cut.
func TestClipKeepsFoldedTextUncopied(t *testing.T) {
	short, long := "already folded text · 日本", strings.Repeat("word ", 40)+"end"
	if n := testing.AllocsPerRun(100, func() { _ = Clip(short, 80) }); n != 0 {
		t.Errorf("Clip of folded text allocated %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Clip(long, 80) }); n > 1 {
		t.Errorf("Clip of a long folded text allocated %v times, want the cut only", n)
	}
}

func BenchmarkClip(b *testing.B) {
	text := strings.Repeat("const v = parse(\"héllo\", {depth: 3});\t// 日本\n", 40)
	b.ReportAllocs()
	for b.Loop() {
		_ = Clip(text, 240)
	}
}

func BenchmarkClipByFolding(b *testing.B) {
	text := strings.Repeat("const v = parse(\"héllo\", {depth: 3});\t// 日本\n", 40)
	b.ReportAllocs()
	for b.Loop() {
		_ = clipByFolding(text, 240)
	}
}

// TestClipperIsClip: text fed a rune at a time clips as Clip clips the
// whole of it, or the Clipper says it cannot.
func TestClipperIsClip(t *testing.T) {
	took := 0
	for _, s := range clipSeeds {
		for _, n := range []int{0, 1, 2, 3, 5, 12, 80, 240} {
			if clipperAgrees(t, s, n) {
				took++
			}
		}
	}
	if took == 0 {
		t.Fatal("the Clipper took none of the seeds")
	}
}

func clipperAgrees(t *testing.T, s string, n int) bool {
	t.Helper()
	var c, w Clipper
	c.Reset(n, nil)
	c.WriteString(s)
	got, ok := c.Result()
	if ok && got != Clip(s, n) {
		t.Errorf("Clipper(%q, %d) = %q, want %q", s, n, got, Clip(s, n))
	}
	// The same text written as bytes, in two parts.
	w.Reset(n, nil)
	half := len(s) / 2
	for half > 0 && !utf8.RuneStart(s[half]) {
		half--
	}
	w.Write([]byte(s[:half]))
	w.Write([]byte(s[half:]))
	if got2, ok2 := w.Result(); ok2 != ok || got2 != got {
		t.Errorf("Clipper.Write(%q, %d) = %q, %v; WriteString gave %q, %v", s, n, got2, ok2, got, ok)
	}
	return ok
}

func FuzzClipper(f *testing.F) {
	for _, s := range clipSeeds {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 300
		if n < 0 {
			n = -n
		}
		clipperAgrees(t, s, n)
	})
}

// BenchmarkClipperWrite feeds a summary's worth of prose and code to a
// Clipper in the pieces a JSON string arrives in (a tree describes every
// entry of a session this way).
func BenchmarkClipperWrite(b *testing.B) {
	text := []byte(strings.Repeat("Reading the file  to find the parser's entry point, then 日本 tests.\n\tconst v = parse(x);", 4))
	var c Clipper
	buf := make([]byte, 0, 1024)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		for _, n := range []int{80, 240} {
			c.Reset(n, buf)
			c.Write(text)
			_, _ = c.Result()
			buf = c.Buffer()
		}
	}
}
