package search

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// findsToken builds a one-entry session around a raw content token and
// reports whether the query finds it (checking the reference agrees).
func findsToken(t *testing.T, token string, q Query) bool {
	t.Helper()
	data := []byte(headerLine("s") + "\n" + rawUserLine("u1", "", 1, token) + "\n")
	m, err := Compile(q)
	if err != nil {
		t.Fatal(err)
	}
	compareWithReference(t, data, q, 64, 1<<20, 1<<20)
	return len(fastSearch(t, m, data, 64, 1<<20, 1<<20)) > 0
}

func TestEscapesMatchTheCharactersTheyStandFor(t *testing.T) {
	cases := []struct {
		name, token, query string
		want               bool
	}{
		{"newline escape", `"first line\nsecond"`, "line\nsec", true},
		{"tab escape", `"a\tb"`, "a\tb", true},
		{"quote escape", `"say \"hi\" now"`, `"hi"`, true},
		{"backslash escape", `"C:\\Users\\me"`, `C:\Users`, true},
		{"escaped slash", `"src\/main.go"`, "src/main.go", true},
		{"unicode escape of ASCII", `"h\u0065llo"`, "hello", true},
		{"upper-case hex", `"caf\u00E9"`, "café", true},
		{"control as \\u", `"bell\u0007!"`, "bell\a!", true},
		{"\\n is not the letter n", `"a\nb"`, "anb", false},
		{"backslash-n text is not a newline", `"a\\nb"`, "a\nb", false},
		{"escaped backslash before u", `"C:\\u0041"`, `\u0041`, true},
		{"escaped backslash before u is not A", `"C:\\u0041"`, "C:A", false},
		{"unicode quote", `"x\u0022y"`, `x"y`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, sensitive := range []bool{false, true} {
				if got := findsToken(t, c.token, Query{Text: c.query, CaseSensitive: sensitive}); got != c.want {
					t.Errorf("token %s query %q sensitive=%v: found %v, want %v", c.token, c.query, sensitive, got, c.want)
				}
			}
		})
	}
}

func TestAstralCharacters(t *testing.T) {
	for _, token := range []string{`"go 😀 now"`, `"go \ud83d\ude00 now"`, `"go \uD83D\uDE00 now"`} {
		if !findsToken(t, token, Query{Text: "😀 now"}) {
			t.Errorf("%s: the emoji is not found", token)
		}
		if !findsToken(t, token, Query{Text: "😀", CaseSensitive: true}) {
			t.Errorf("%s: the emoji alone is not found", token)
		}
	}
	// Another character of the same surrogate block does not match.
	if findsToken(t, `"go \ud83d\ude01 now"`, Query{Text: "😀"}) {
		t.Error("U+1F601 matched U+1F600")
	}
	// A lone surrogate reads as U+FFFD.
	if !findsToken(t, `"x\ud83dy"`, Query{Text: "x\ufffdy"}) {
		t.Error("a lone high surrogate is not U+FFFD")
	}
}

func TestCaseFoldingIsUnicodeAware(t *testing.T) {
	cases := []struct {
		text, query string
		want        bool
	}{
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ", true},
		{"Straße", "STRASSE", false}, // simple folding: ß is not "ss"
		{"Kelvin \u212a", "kelvin k", true},
		{"long ſ", "LONG S", true},
		{"ÉCOLE", "école", true},
	}
	for _, c := range cases {
		if got := findsToken(t, `"`+c.text+`"`, Query{Text: c.query}); got != c.want {
			t.Errorf("%q in %q: %v, want %v", c.query, c.text, got, c.want)
		}
		if findsToken(t, `"`+c.text+`"`, Query{Text: c.query, CaseSensitive: true}) && c.text != c.query {
			t.Errorf("%q in %q matched case-sensitively", c.query, c.text)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	// Raw bytes that are not UTF-8 read as U+FFFD (one per maximal
	// subpart); the text around them still matches.
	token := "\"abc\xff\xfedef \xe2\x82 ghi\""
	if !findsToken(t, token, Query{Text: "def"}) {
		t.Error("text after invalid bytes not found")
	}
	if !findsToken(t, token, Query{Text: "c\ufffd\ufffdd"}) {
		t.Error("each invalid byte is not one U+FFFD")
	}
	if !findsToken(t, token, Query{Text: "def \ufffd ghi"}) {
		t.Error("a truncated sequence is not one U+FFFD")
	}
	// An invalid query byte stands for U+FFFD too.
	if !findsToken(t, token, Query{Text: "c\xff\xffd"}) {
		t.Error("invalid query bytes do not stand for U+FFFD")
	}
}

func TestKeyNamesAndSyntaxNeverMatch(t *testing.T) {
	data := []byte(headerLine("s") + "\n" +
		`{"type":"message","id":"u1","parentId":null,"timestamp":"` + ts(1) + `","message":{"role":"user","content":[{"type":"text","text":"plain words"},{"type":"image","data":"aW1hZ2U=","mimeType":"image/png"}]}}` + "\n" +
		`{"type":"custom","customType":"ext","data":{"secret":"hidden words"},"id":"c1","parentId":"u1","timestamp":"` + ts(2) + `"}` + "\n" +
		`{"type":"message","id":"s1","parentId":"c1","timestamp":"` + ts(3) + `","message":{"role":"system","content":"system words"}}` + "\n")
	for _, q := range []string{"content", "role", "text", "type", "message", `":"`, "image/png", "aW1hZ2U", "hidden", "secret", "system words", "u1", "timestamp"} {
		m, _ := Compile(Query{Text: q})
		if got := fastSearch(t, m, data, 1<<10, 1<<20, 1<<20); len(got) > 0 {
			t.Errorf("%q matched %v", q, got)
		}
	}
	m, _ := Compile(Query{Text: "plain"})
	if got := fastSearch(t, m, data, 1<<10, 1<<20, 1<<20); len(got) != 1 {
		t.Errorf("plain: %v", got)
	}
}

func TestMatchSplitAcrossReadBuffers(t *testing.T) {
	// Many lines; the needle sits at every possible position relative to
	// the buffer boundary, in short lines and in lines longer than the
	// buffer (which are followed window by window).
	var lines []string
	lines = append(lines, headerLine("s"))
	for i := 0; i < 120; i++ {
		pad := strings.Repeat("x", i)
		lines = append(lines, userLine("a"+string(rune('0'+i%10))+pad[:min(i, 3)], "", 1, pad+"NEEDLE\"in\\hay"+pad))
	}
	long := strings.Repeat("y", 700)
	lines = append(lines, userLine("long1", "", 1, long+"NEEDLE\"in\\hay"+long))
	lines = append(lines, userLine("long2", "", 1, "NEEDLE\"in\\hay"+long+long))
	lines = append(lines, userLine("long3", "", 1, long+long+"NEEDLE\"in\\hay"))
	data := []byte(strings.Join(lines, "\n") + "\n")
	q := Query{Text: `needle"IN\hay`}
	for _, buf := range []int{64, 100, 127, 256, 1000} {
		for _, part := range []int64{97, 1000, 1 << 20} {
			compareWithReference(t, data, q, buf, 1<<20, part)
		}
		m, _ := Compile(q)
		if got := fastSearch(t, m, data, buf, 1<<20, 333); len(got) != 123 {
			t.Fatalf("buffer %d: %d matches, want 123", buf, len(got))
		}
	}
}

func TestLongLinesBeyondTheLimitAreSkipped(t *testing.T) {
	huge := strings.Repeat("z", 5000)
	data := []byte(headerLine("s") + "\n" + userLine("big", "", 1, "find me "+huge) + "\n" + userLine("small", "", 2, "find me") + "\n")
	m, _ := Compile(Query{Text: "find me"})
	var big bigLines
	sc := newScanner(256, 4000, &big)
	res, err := sc.scanRange(t.Context(), m, bytes.NewReader(data), int64(len(data)), 0, int64(len(data)), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.hits) != 1 || res.hits[0].hit.id != "small" || res.oversized != 1 {
		t.Fatalf("hits %+v, oversized %d", res.hits, res.oversized)
	}
}

func TestRegexUsesARequiredLiteral(t *testing.T) {
	for expr, want := range map[string]string{
		"foo[0-9]+barbaz":    "barbaz",
		"(?i)hello wor.d":    "hello wor",
		"(abc|def)":          "",
		"x(longer literal)y": "longer literal",
		"(?:quux)+":          "quux",
		"a*":                 "",
	} {
		got, _ := requiredLiteral(expr)
		if !strings.EqualFold(got, want) {
			t.Errorf("%s: %q, want %q", expr, got, want)
		}
	}
	sc := newScope(t)
	writeFile(t, filepath.Join(sc.dir, "a.jsonl"), t0, headerLine("s1"),
		userLine("u1", "", 1, "error E1234 in parser"), userLine("u2", "u1", 2, "error Exyz"))
	hits, _ := run(t, NewSearcher(), sc.scope(false), Query{Text: `error e\d+`, Regex: true}, Options{})
	if ids(hits) != "u1" || hits[0].Snippet.Text[hits[0].Snippet.Start:hits[0].Snippet.End] != "error E1234" {
		t.Fatalf("%+v", hits)
	}
	if _, err := Compile(Query{Text: "x*", Regex: true}); err == nil {
		t.Error("a regex matching empty text was accepted")
	}
	if _, err := Compile(Query{Text: "a(", Regex: true}); err == nil || strings.Contains(err.Error(), "(?i)") {
		t.Errorf("bad regex error: %v", err)
	}
}

func TestSnippetIsSanitisedOneRow(t *testing.T) {
	text := []byte("before\x1b]52;c;AAAA\x07 line\nbreak \x1b[31mRED\x1b[0m target after\ttab " + strings.Repeat("tail ", 40))
	s := makeSnippet(text, span{bytes.Index(text, []byte("target")), bytes.Index(text, []byte("target")) + 6})
	if s.Text[s.Start:s.End] != "target" {
		t.Fatalf("match %q in %q", s.Text[s.Start:s.End], s.Text)
	}
	if strings.ContainsAny(s.Text, "\x1b\x07\n\t") || strings.Contains(s.Text, "  ") {
		t.Errorf("snippet not one sanitised row: %q", s.Text)
	}
	if !strings.HasSuffix(s.Text, "…") {
		t.Errorf("cut snippet without an ellipsis: %q", s.Text)
	}
}

func TestWriterThatEscapesEverything(t *testing.T) {
	// Every character as \uXXXX, the header included: the first line gives
	// the writer away and every line is decoded.
	all := func(s string) string { return encodeString(s, styleAllEscaped) }
	data := []byte(`{"type":` + all("session") + `,"version":3,"id":` + all("s") + `}` + "\n" +
		rawUserLine("u1", "", 1, all("zebra crossing")) + "\n")
	for _, part := range []int64{7, 1 << 20} {
		m, _ := Compile(Query{Text: "ZEBRA"})
		if got := fastSearch(t, m, data, 64, 1<<20, part); len(got) != 1 {
			t.Fatalf("parts of %d: %v", part, got)
		}
	}
	// Python's ensure_ascii escapes non-ASCII only, astral characters as
	// surrogate pairs; Go's encoder escapes <, > and &.
	for _, token := range []string{encodeString("naïve — 😀 <tag>&", styleASCII), encodeString("naïve — 😀 <tag>&", styleGo)} {
		for _, q := range []string{"ï", "—", "😀", "<tag>&", "NAÏVE — 😀"} {
			if !findsToken(t, token, Query{Text: q}) {
				t.Errorf("%s: %q not found", token, q)
			}
		}
	}
}

func TestQuickIDsReadsOnlyPiShapedLines(t *testing.T) {
	for line, want := range map[string]string{
		userLine("ab12cd34", "", 1, "x"):                                         "message ab12cd34 - false",
		userLine("ab12cd34", "ff00ff00", 1, "x"):                                 "message ab12cd34 ff00ff00 true",
		`{"type":"label","id":"l1","parentId":"p1","targetId":"a","label":"x"}`:  "label l1 p1 true",
		`{"type":"custom","customType":"x","data":{},"id":"c1","parentId":null}`: "",
		`{"type":"message","id":"a\u0062","parentId":null,"x":1}`:                "",
		`{"type":"message","id":"a","parentId":null,"x":1`:                       "", // unfinished
		`{"type":"message","id":"a","parentId":7,"x":1}`:                         "",
	} {
		typ, id, parent, has, ok := quickIDs([]byte(line))
		got := ""
		if ok {
			if parent == "" {
				parent = "-"
			}
			got = typ + " " + id + " " + parent + " " + map[bool]string{true: "true", false: "false"}[has]
		}
		if got != want {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}
