package search

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Writers of JSON strings that a session file may have met: Pi's
// JSON.stringify, and other encoders' escape habits.
const (
	styleStringify  = iota // JSON.stringify: only what must be escaped
	styleASCII             // every non-ASCII as \uXXXX, astral as surrogate pairs (Python)
	styleGo                // encoding/json: \u003c \u003e \u0026 \u2028 \u2029
	styleAllEscaped        // every character as \uXXXX, hex case alternating
	styleSlash             // JSON.stringify with '/' written "\/"
	styleRawBytes          // invalid UTF-8 bytes kept raw
	styleCount
)

// encodeString returns s as a JSON string token in the given style.
func encodeString(s string, style int) string {
	switch style {
	case styleGo:
		b, _ := json.Marshal(s)
		return string(b)
	case styleStringify:
		return jsonv.Quote(s)
	case styleSlash:
		return strings.ReplaceAll(jsonv.Quote(s), "/", `\/`)
	}
	var b strings.Builder
	b.WriteByte('"')
	upper := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			if style == styleRawBytes {
				b.WriteByte(s[i])
			} else {
				b.WriteString(`\ufffd`)
			}
			i++
			continue
		}
		i += n
		escapeAll := style == styleAllEscaped
		switch {
		case escapeAll || (style == styleASCII && r >= 0x80):
			for _, u := range utf16.Encode([]rune{r}) {
				format := `\u%04x`
				if upper {
					format = `\u%04X`
				}
				upper = !upper
				fmt.Fprintf(&b, format, u)
			}
		default:
			q := jsonv.Quote(string(r))
			b.WriteString(q[1 : len(q)-1])
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fuzzSession builds a session whose readable texts are a and b, written
// in styles picked from style, plus texts that are never searched (keys,
// ids, custom entry data, a system prompt).
func fuzzSession(a, b string, style uint8) []byte {
	st := func(k int) int { return int(style>>k) % styleCount }
	enc := func(s string, k int) string { return encodeString(s, st(k)) }
	header := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`
	for k := range 6 {
		if st(k) == styleAllEscaped {
			// A writer that escapes everything escapes the header too.
			header = `{"type":` + encodeString("session", styleAllEscaped) + `,"version":3,"id":"s1","cwd":"/p"}`
		}
	}
	lines := []string{
		header,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":` + enc(a, 0) + `,"timestamp":1}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":` + enc(b, 1) +
			`},{"type":"thinking","thinking":` + enc(a, 2) + `,"thinkingSignature":` + enc(b, 0) + `},{"type":"toolCall","id":` + enc(a, 3) +
			`,"name":"bash","arguments":{"command":` + enc(b, 4) + `,` + enc(a, 0) + `:[` + enc(a, 5) + `,1,{"x":` + enc(b, 2) + `}]}}],"errorMessage":` + enc(a, 1) + `}}`,
		`{"type":"message","id":"t1","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c","toolName":` + enc(a, 0) + `,"content":[{"type":"text","text":` + enc(b, 3) + `},{"type":"image","data":` + enc(a, 0) + `}]}}`,
		`{"type":"message","id":"x1","parentId":"t1","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"system","content":` + enc(a, 0) + `}}`,
		`{"type":"custom","customType":"ext","data":{"text":` + enc(a, 1) + `},"id":"c1","parentId":"x1","timestamp":"2026-01-01T00:00:05.000Z"}`,
		`{"type":"custom_message","customType":"ext","content":[{"type":"text","text":` + enc(a, 4) + `}],"display":true,"id":"m1","parentId":"c1","timestamp":"2026-01-01T00:00:06.000Z"}`,
		`{"type":"compaction","summary":` + enc(b, 5) + `,"firstKeptEntryId":"m1","tokensBefore":1,"id":"k1","parentId":"m1","timestamp":"2026-01-01T00:00:07.000Z"}`,
		`{"type":"message","id":"b1","parentId":"k1","timestamp":"2026-01-01T00:00:08.000Z","message":{"role":"bashExecution","command":` + enc(a, 2) + `,"output":` + enc(b, 3) + `}}`,
		`{"type":"label","id":"l1","parentId":"b1","targetId":"u1","label":` + enc(a, 0) + `,"timestamp":"2026-01-01T00:00:09.000Z"}`,
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// fuzzQuery turns the fuzzer's query and flags into a Query.
func fuzzQuery(query string, flags uint8) Query {
	q := Query{Text: query, CaseSensitive: flags&1 != 0}
	if flags&2 != 0 {
		q.Regex = true
		q.Text = regexp.QuoteMeta(query) + "s?" // a required literal: the prefilter looks for it
		if flags&0x40 != 0 {
			q.Text = regexp.QuoteMeta(query) + "|" + regexp.QuoteMeta(strings.ToUpper(query)) + "s?"
		}
	}
	if flags&4 != 0 {
		q.Roles = []string{FilterRoles[int(flags>>3)%len(FilterRoles)]}
	}
	return q
}

// FuzzMatcher compares the search with the decode-everything reference on
// sessions whose texts are written with every escape habit, read through
// tiny buffers split into parts (so matches straddle buffer boundaries and
// lines outgrow the buffer).
func FuzzMatcher(f *testing.F) {
	f.Add("hello world", "Say \"hi\"\n\tto C:\\path/to/file", "hello", uint8(0), uint8(0), uint8(16))
	f.Add("emoji 😀 and Kelvin \u212a", "ſtop", "😀 AND k", uint8(0x5b), uint8(0), uint8(40))
	f.Add("a\x00b\x1bc\u2028d<&>", "\xff\xfeinvalid \xe2\x82", "\u2028D<", uint8(0x2d), uint8(1), uint8(7))
	f.Add("path/to/x", "path\\/to", "h/t", uint8(0xa4), uint8(4), uint8(9))
	f.Add("STRASSE straße", "ß", "SS", uint8(3), uint8(2), uint8(31))
	f.Add("x\xed\xa0\x80y", "\ufffd", "\ufffd", uint8(0x17), uint8(0), uint8(5))
	f.Fuzz(func(t *testing.T, a, b, query string, style, flags, sizes uint8) {
		if query == "" || len(a)+len(b) > 1<<12 || len(query) > 64 {
			return
		}
		if flags&0x80 != 0 {
			// Look for a piece of the text, so matches are the common case.
			query = pieceOf(a+b, int(sizes), len(query)%9+1)
			if flags&0x20 != 0 {
				query = strings.ToUpper(query)
			}
			if query == "" {
				return
			}
		}
		data := fuzzSession(a, b, style)
		buf := 8 + int(sizes%64)
		part := int64(1 + int(sizes>>2)*13)
		compareWithReference(t, data, fuzzQuery(query, flags), buf, 1<<16, part)
		// And the whole file at once, with a line limit that drops some.
		compareWithReference(t, data, fuzzQuery(query, flags), 1<<16, 200+int(sizes)*4, 1<<20)
	})
}

// pieceOf returns up to n runes of s starting near rune index at.
func pieceOf(s string, at, n int) string {
	r := []rune(s)
	if len(r) == 0 {
		return ""
	}
	at %= len(r)
	return string(r[at:min(len(r), at+n)])
}

// FuzzSearchRaw compares the search with the reference on arbitrary bytes.
func FuzzSearchRaw(f *testing.F) {
	f.Add(fuzzSession("needle", "hay\\stack", 0), "needle", uint8(0), uint8(11))
	f.Add([]byte("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"a\\u0062c\"}}\n{\"type\":\"session\"}\r\n[1]\n"), "abc", uint8(0), uint8(3))
	f.Add([]byte("{\"type\":\"compaction\",\"summary\":\"\\ud83d\\ude00\\ud83d\"}"), "\U0001F600", uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, query string, flags, sizes uint8) {
		if query == "" || len(data) > 1<<13 || len(query) > 64 {
			return
		}
		compareWithReference(t, data, fuzzQuery(query, flags), 8+int(sizes%64), 1<<16, int64(1+int(sizes>>2)*11))
	})
}

// FuzzRecordedTree: the tree the scan records part by part is the whole
// tree pass's, for any bytes, parts, buffer and hit timing.
func FuzzRecordedTree(f *testing.F) {
	f.Add([]byte(headerLine("s")+"\n"+userLine("a", "", 1, "zebra")+"\n"+userLine("b", "a", 2, "x")+"\n{broken\n"+userLine("c", "a", 3, "zebra")), uint16(40), uint16(70), false, uint64(1))
	f.Add([]byte("\n"+userLine("q", "", 0, "zebra")+"\n"+headerLine("s")+"\n"+userLine("a", "zz", 1, "zebra")), uint16(10), uint16(64), true, uint64(2))
	m, err := Compile(Query{Text: "zebra"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, partBytes, bufBytes uint16, preHit bool, seed uint64) {
		checkRecordedTree(t, m, data, 16+int(bufBytes%2048), MaxLineBytes, 1+int64(partBytes), preHit, rand.New(rand.NewPCG(seed, seed)))
	})
}
