package compare

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session/replay"
)

func composeAt(t *testing.T, file, id string) (Composition, *replay.Request) {
	t.Helper()
	s := openTestdata(t, file)
	i, ok := s.IndexOf(id)
	if !ok {
		t.Fatalf("no entry %s", id)
	}
	r, err := replay.RequestAt(s, i, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Compose(r, RequestUsage(s, r)), r
}

func partSum(c Composition) (tokens int, chars int) {
	for _, p := range c.Parts {
		tokens += p.Tokens
		chars += p.Chars
	}
	return tokens, chars
}

func describe(c Composition) string {
	var b strings.Builder
	for _, p := range c.Parts {
		in := "?"
		if p.PrefixKnown {
			in = map[bool]string{true: "in", false: "out"}[p.InPrefix]
		}
		b.WriteString(p.Kind + ":" + p.Label + ":" + in + " ")
	}
	return strings.TrimSpace(b.String())
}

// The request for c0000006 went out after the tool result: tools, Pi's
// sections, the history with an image; its usage (100 + 3,500 cached)
// scales the estimates and places the cache boundary.
func TestComposeScalesToTheRecordedInput(t *testing.T) {
	c, r := composeAt(t, "composition.jsonl", "c0000006")
	if !c.HasRecorded || c.RecordedInput != 3600 || c.CacheRead != 3500 || c.UsageEntry != "c0000006" {
		t.Fatalf("recorded %v %d cache read %d from %q", c.HasRecorded, c.RecordedInput, c.CacheRead, c.UsageEntry)
	}
	tokens, chars := partSum(c)
	if tokens != c.Total || c.Total != c.RecordedInput {
		t.Errorf("parts add up to %d, total %d, recorded %d", tokens, c.Total, c.RecordedInput)
	}
	// Every character of the request is in one part: the tools as
	// declared, the system block, the messages' text and tool calls.
	want := 0
	for _, b := range r.Turn.Turn.Blocks {
		if b.Key == turndiff.KeySystem {
			want += b.Chars
		}
	}
	if tv, ok := r.Payload.Get("tools"); ok {
		for _, tool := range tv.([]any) {
			want += jsonv.UTF16Len(jsonv.Stringify(tool))
		}
	}
	for _, text := range []string{
		"Why does this screenshot show a wrong total?",
		"Let me read the code.", "read", `{"path":"src/total.ts"}`,
		"export const total = (xs) => xs.reduce((a, b) => a + b, 0).toFixed(2);",
	} {
		want += len(text)
	}
	// The image's estimate (4,800 chars) is most of the request, so the
	// recorded cache boundary falls inside it: it shows as two parts.
	if got := describe(c); got != "tool:read:in tool:bash:in system-section:preamble:in system-section:guidelines:in system-section:project:in history:user:in image:images:in image:images:out history:assistant:out tool-result:read:out" {
		t.Errorf("parts: %s", got)
	}
	// The image counts what Pi's estimate counts for it, not its bytes.
	imageChars := 0
	for _, p := range c.Parts {
		if p.Kind == PartImage {
			imageChars += p.Chars
		}
	}
	if imageChars != 4800 {
		t.Errorf("image chars %d, want 4800", imageChars)
	}
	if chars-imageChars != want {
		t.Errorf("parts hold %d chars besides the image, the request %d", chars-imageChars, want)
	}
	// The boundary is one place: every part inside it comes first.
	out := false
	for _, p := range c.Parts {
		if !p.PrefixKnown {
			t.Fatalf("%s %s: prefix unknown though usage is recorded", p.Kind, p.Label)
		}
		if out && p.InPrefix {
			t.Errorf("%s %s is inside the prefix after a part outside it", p.Kind, p.Label)
		}
		out = out || !p.InPrefix
	}
	share := 0.0
	for _, p := range c.Parts {
		share += p.Share
	}
	if share < 0.99 || share > 1.01 {
		t.Errorf("shares add up to %v", share)
	}
}

// Pi's system prompt is split at its sections in prompt order, and the
// sections' characters add up to the system block's.
func TestComposeSplitsPiSystemPromptBySection(t *testing.T) {
	c, r := composeAt(t, "composition.jsonl", "c0000007")
	system := 0
	for _, b := range r.Turn.Turn.Blocks {
		if b.Key == turndiff.KeySystem {
			system = b.Chars
		}
	}
	got := 0
	var names []string
	for _, p := range c.Parts {
		if p.Kind == PartSystemSection || p.Kind == PartSystem {
			got += p.Chars
			names = append(names, p.Ref)
		}
	}
	if got != system || strings.Join(names, ",") != "preamble,guidelines,project" {
		t.Errorf("sections %v hold %d chars, the system block %d", names, got, system)
	}
	// c0000007 is a user message nothing answered: no usage, no scaling.
	if c.HasRecorded || c.Parts[0].PrefixKnown {
		t.Errorf("no usage is recorded for the request after c0000007: %+v", c)
	}
	tokens, _ := partSum(c)
	if tokens != c.Total {
		t.Errorf("parts %d, total %d", tokens, c.Total)
	}
}

// The request Pi would send from c0000003 is the one c0000004 answered:
// its usage is the child's.
func TestRequestUsageOfAUserEntryIsItsReply(t *testing.T) {
	c, _ := composeAt(t, "composition.jsonl", "c0000003")
	if !c.HasRecorded || c.UsageEntry != "c0000004" || c.RecordedInput != 3500 || c.CacheRead != 0 {
		t.Fatalf("usage from %q: recorded %d cache read %d", c.UsageEntry, c.RecordedInput, c.CacheRead)
	}
	for _, p := range c.Parts {
		if p.InPrefix {
			t.Errorf("nothing was read from the cache, yet %s %s is in the prefix", p.Kind, p.Label)
		}
	}
}

// Largest remainders: however the shares fall, the parts add up to the
// recorded input exactly.
func TestDistributeAddsUpExactly(t *testing.T) {
	for _, recorded := range []int{1, 7, 100, 3601, 99991} {
		c := Composition{HasRecorded: true, RecordedInput: recorded}
		chars := 0
		for i, n := range []int{3, 3, 3, 1, 997, 13} {
			c.Parts = append(c.Parts, Part{Label: string(rune('a' + i)), Chars: n})
			chars += n
		}
		c.distribute(chars)
		if tokens, _ := partSum(c); tokens != recorded || c.Total != recorded {
			t.Errorf("recorded %d: parts %d total %d", recorded, tokens, c.Total)
		}
	}
}

func TestCompositionValueKeys(t *testing.T) {
	c, _ := composeAt(t, "composition.jsonl", "c0000006")
	v := c.Value()
	if got := strings.Join(v.Keys(), ","); got != "total,recordedInput,parts" {
		t.Errorf("keys %s", got)
	}
	parts, _ := v.Get("parts")
	first := parts.([]any)[0].(*jsonv.Object)
	if got := strings.Join(first.Keys(), ","); got != "kind,label,ref,chars,tokens,share,inPrefix" {
		t.Errorf("part keys %s", got)
	}
}
