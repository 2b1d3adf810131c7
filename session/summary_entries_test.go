package session

import (
	"strings"
	"testing"
)

// rawEntrySeeds are entry lines of the types describeEntryRaw reads, in
// the shapes it takes and the shapes it must leave to the decoder.
var rawEntrySeeds = []string{
	`{"type":"thinking_level_change","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","thinkingLevel":"high"}`,
	`{"type":"thinking_level_change","id":"a","thinkingLevel":null}`,
	`{"type":"thinking_level_change","id":"a","thinkingLevel":5}`,                       // a type error: the decoder's
	`{"type":"thinking_level_change","id":"a","ThinkingLevel":"x"}`,                     // another case: the decoder's
	`{"type":"thinking_level_change","id":"a","thinkingLevel":"a","thinkingLevel":"b"}`, // twice: the decoder's
	`{"type":"session_info","id":"s","name":"Fix \"the\" bug\u0007 \xff"}`,
	`{"type":"session_info","id":"s","name":null}`,
	`{"type":"session_info","id":"s"}`,
	`{"type":"session_info","id":"s","name":["x"]}`,
	`{"type":"session_info","id":"s","n\u0061me":"escaped key"}`,
	`{"type":"label","id":"l","targetId":"abc","label":"v1 ✓"}`,
	`{"type":"label","id":"l","targetId":"abc","label":null}`,
	`{"type":"label","id":"l","label":"no target"}`,
	`{"type":"label","id":"l","targetId":7,"label":"x"}`,
	"{\"type\":\"label\",\"label\":\"0\xe2\x93\"}", // each invalid byte is a U+FFFD, as the decoder has it
	`{"type":"label","id":"l","targetId":"\ud800x","label":"\ud83d\ude00 \u00e9"}`,
	`{"type":"custom","customType":"ext/state","data":{"n":[1,2,{"deep":true}]},"id":"c"}`,
	`{"type":"custom","customType":"ext\tstate\n` + "\u202e" + `","data":"x","id":"c"}`,
	`{"type":"branch_summary","id":"b","fromId":"x","summary":"` + strings.Repeat("long summary ", 40) + `","usage":"wrong","fromHook":1}`,
	`{"type":"branch_summary","id":"b","summary":"s","details":{"a":1},"usage":{"totalTokens":3}}`,
	`{"type":"usage","id":"u","kind":"cache_warm","provider":"anthropic","model":"m","usage":{"input":1,"totalTokens":5000}}`,
	`{"type":"usage","id":"u","kind":"k","provider":null,"model":"m","usage":{"totalTokens":5,"totalTokens":"x"}}`,
	`{"type":"usage","id":"u","kind":"k","usage":[1]}`,
	`{"type":"usage","id":"u","kind":"k","model":"m","usage":{"totalTokens":1e400},"note":"n"}`,
	`{"type":"usage","id":"u","usage":{"a":1},"usage":{"totalTokens":2}}`,
	`{"type":"custom","customType":"x","data":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
}

// TestDescribeEntryRawAgrees: on the seeds, the raw reading of the small
// entry types gives the decoder's summary or declines, and takes some.
func TestDescribeEntryRawAgrees(t *testing.T) {
	took, declined := 0, 0
	for _, line := range rawEntrySeeds {
		if entryRawAgrees(t, []byte(line)) {
			took++
		} else {
			declined++
		}
	}
	if took < 10 || declined < 5 {
		t.Errorf("the raw reading took %d and declined %d seeds: both ways should be tried", took, declined)
	}
}

// entryRawAgrees checks one line at every width; it reports whether the
// raw reading took it.
func entryRawAgrees(t *testing.T, line []byte) bool {
	t.Helper()
	e, err := ParseEntryLine(line, 1)
	if err != nil || e.NotObject {
		return false
	}
	took := false
	for _, runes := range clipWidths {
		got, ok := describeEntryRaw(e, runes)
		if !ok {
			continue
		}
		took = true
		if want := describeDecoded(e, runes); got != want {
			t.Errorf("line %.200q (%d runes):\nraw     %+v\ndecoded %+v", line, runes, got, want)
		}
	}
	return took
}

// TestDescribeEntryRawOnGenerated: every entry of a generated session of
// small entries that the raw reading takes is described as the decoder
// describes it, and it takes the entry types it was written for.
func TestDescribeEntryRawOnGenerated(t *testing.T) {
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		got, ok := describeEntryRaw(e, summaryRunes)
		if !ok {
			continue
		}
		taken[e.Type]++
		if want := describeDecoded(e, summaryRunes); got != want {
			t.Fatalf("line %d: raw %+v, decoded %+v", e.Line, got, want)
		}
	}
	for typ := range entryReads {
		if taken[typ] == 0 {
			t.Errorf("no %s entry was read raw (taken: %v)", typ, taken)
		}
	}
}

// FuzzDescribeEntryRawTypes compares the raw reading of the small entry
// types with the decoder's on arbitrary lines.
func FuzzDescribeEntryRawTypes(f *testing.F) {
	for _, s := range rawEntrySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		entryRawAgrees(t, line)
	})
}
