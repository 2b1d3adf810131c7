package session

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// rawSummarySeeds are message bodies that take every branch of the raw
// reading, and the shapes it must leave to the decoder.
var rawSummarySeeds = []string{
	`{"role":"user","content":"Fix\nthe \u001b[31mbug"}`,
	`{"role":"user","content":[{"type":"text","text":"a"},null,{"type":"image","data":"x","mimeType":"image/png"}]}`,
	`{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","redacted":true},{"type":"text","text":"Reading."},{"type":"toolCall","id":"c1","name":"read","arguments":{ "path" : "a.ts" }}],"usage":{"totalTokens":15},"stopReason":"toolUse"}`,
	`{"role":"assistant","content":[{"type":"toolCall","name":"x","arguments":null},{"type":"toolCall","name":"y"}],"stopReason":"error","errorMessage":"boom\u0007"}`,
	`{"role":"assistant","stopReason":"aborted","content":[],"errorMessage":null,"usage":"many"}`,
	`{"role":"toolResult","toolName":"read","content":[{"type":"text","text":"one"},{"type":"text","text":"two"}],"isError":true}`,
	`{"role":"toolResult","toolName":null,"content":"plain","isError":1}`,
	`{"role":"bashExecution","command":"ls -la \ud83d\ude00 \ud800 \udc00\ud800x","output":"x"}`,
	`{"role":"branchSummary","summary":"went \"elsewhere\"\t\\"}`,
	`{"role":"compactionSummary","summary":"kept","tokensBefore":"wrong"}`,
	`{"role":"custom","customType":"n","content":[{"type":"text","text":"c"}]}`,
	`{"role":"user","Content":"case"}`,                                  // another case of a field: the decoder's
	`{"role":"user","content":"a","content":"b"}`,                       // twice: the decoder's
	`{"role":"user","\u0063ontent":"escaped key"}`,                      // escaped key: the decoder's
	`{"role":"user","cöntent":"not ascii"}`,                             // not ASCII: the decoder's
	`{"role":"user","content":[{"type":"text","text":5}],"x":1}`,        // a type error stops the decoder
	`{"role":"user","content":[{"type":"text","redacted":"no"},"str"]}`, // ditto
	`{"role":"assistant","content":[{"type":"text","text":"t"}],"stopReason":5,"errorMessage":"e"}`,
	`{"role":"system","content":"","sections":{"a":"b"}}`,
	`{"role":"user","content":[{"type":"te\u0078t","text":"escaped type"}]}`,
	`{"role":"user","content":"\u00e9\u65e5\u672c \xff\xfe invalid"}`,
	`{"role":5,"content":"role not a string"}`,
	`{"content":{"type":"text"}}`,
	`{"role":"assistant","content":"u","usage":{"input":1,"totalTokens":-12.7}}`,
	`{"role":"assistant","content":"u","usage":{"totalTokens":1e400}}`,
	`{"role":"assistant","content":"u","usage":{"totalTokens":"7"}}`,
	`{"role":"assistant","content":"u","usage":{"totalTokens":5,"totalTokens":"x"}}`, // the decoder keeps 5
	`{"role":"assistant","content":"u","usage":{"TotalTokens":3}}`,
	`{"role":"assistant","content":"u","usage":[1]}`,
}

// TestDescribeMessageRawAgrees: on the seeds, with budgets small enough to
// cut every text, the raw reading gives the decoder's summary or declines.
func TestDescribeMessageRawAgrees(t *testing.T) {
	declined := 0
	for _, msg := range rawSummarySeeds {
		for _, first := range []int{1, 3, 7, 4096} {
			if !rawAgrees(t, []byte(msg), first) {
				declined++
			}
		}
	}
	if declined == 0 || declined == 4*len(rawSummarySeeds) {
		t.Errorf("the raw reading declined %d of %d: the seeds should take both ways", declined, 4*len(rawSummarySeeds))
	}
}

// rawAgrees checks one message body; it reports whether the raw reading
// took it.
func rawAgrees(t *testing.T, msg []byte, first int) bool {
	t.Helper()
	line := append([]byte(`{"type":"message","id":"m","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":`), msg...)
	line = append(line, '}')
	e, err := ParseEntryLine(line, 1)
	if err != nil || e.Type != TypeMessage {
		return false
	}
	if d := describeDecoded(e, summaryRunes); sanitize.Fold(d.Text) != d.Text {
		t.Errorf("message %q: summary %q is not folded", msg, d.Text) // the Session panel keeps it as it is
	}
	wide := describeDecoded(e, summaryRunes)
	took := false
	for _, runes := range clipWidths {
		want := describeDecoded(e, runes)
		if clipped := sanitize.Clip(wide.Text, runes); want.Text != clipped {
			t.Errorf("message %q: summary in %d runes %q, want the 240-rune one clipped, %q", msg, runes, want.Text, clipped)
		}
		got, ok := describeMessageRaw(e, first, runes, true)
		if !ok {
			continue
		}
		took = true
		if got != want {
			t.Errorf("message %q (first %d, %d runes):\nraw     %+v\ndecoded %+v", msg, first, runes, got, want)
		}
		line, _ := describeMessageRaw(e, first, runes, false)
		if line.Kind != want.Kind || line.Text != want.Text {
			t.Errorf("message %q (first %d, %d runes) without counts: %+v, want %+v", msg, first, runes, line, want)
		}
	}
	return took
}

// clipWidths are the columns summaries are tried at: every one must give
// the 240-rune summary clipped again (DescribeEntryClipped's promise).
var clipWidths = []int{1, 2, 12, 80, summaryRunes}

// TestClipTextIsClip: clipping growing prefixes gives sanitize.Clip of the
// whole text, also where a cut falls inside an escape sequence, a run of
// spaces or a character.
func TestClipTextIsClip(t *testing.T) {
	long := strings.Repeat("wörd \x1b[31mred\x1b[0m\t日本 ", 200)
	for _, text := range []string{
		"", "short", long, strings.Repeat(" ", 5000) + "x", strings.Repeat("\x1b]52;c;", 3000) + "tail",
		strings.Repeat("a", summaryRunes-1) + "…", strings.Repeat("a", summaryRunes) + "…", "\xff\xfe" + long,
	} {
		for _, first := range []int{1, 2, 5, 64, 4096} {
			for _, runes := range clipWidths {
				if got, want := clipText(text, first, runes), sanitize.Clip(text, runes); got != want {
					t.Errorf("clipText(%.40q…, %d, %d) = %q, want %q", text, first, runes, got, want)
				}
			}
		}
	}
}

// FuzzDescribeEntryRaw compares the raw reading of a message with the
// decoder's on arbitrary bodies and first budgets, and clipText with
// sanitize.Clip on arbitrary text.
func FuzzDescribeEntryRaw(f *testing.F) {
	for _, s := range rawSummarySeeds {
		f.Add([]byte(s), uint8(3))
	}
	f.Add([]byte(`{"role":"user","content":"`+strings.Repeat(`a \u001b[1m`, 60)+`"}`), uint8(16))
	f.Fuzz(func(t *testing.T, msg []byte, first uint8) {
		rawAgrees(t, msg, int(first))
		if utf8.Valid(msg) || len(msg) < 1000 {
			for _, runes := range clipWidths {
				if got, want := clipText(string(msg), int(first), runes), sanitize.Clip(string(msg), runes); got != want {
					t.Errorf("clipText(%q, %d, %d) = %q, want %q", msg, first, runes, got, want)
				}
			}
		}
	})
}
