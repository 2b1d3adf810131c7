package compare

import (
	"math"
	"sort"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/session/stats"
)

// Kinds of a composition part.
const (
	PartTool          = "tool"           // one tool definition
	PartSystem        = "system"         // system prompt text nothing splits further
	PartSystemSection = "system-section" // one section of Pi's system prompt
	PartPresetItem    = "preset-item"    // text one Preset item produced
	PartHistory       = "history"        // conversation messages of one role
	PartToolResult    = "tool-result"    // the results of one tool
	PartCapability    = "capability"     // a capability's update text
	PartImage         = "image"          // images in messages
)

// imageChars is what one image counts for, as Pi's chars/4 estimate
// counts it (compaction.ts).
const imageChars = 4800

// Part is one share of a request.
type Part struct {
	Kind  string
	Label string
	// Ref names what produced the part: a tool name, a section name, a
	// Preset item id, a capability id ("" when nothing in particular).
	Ref string
	// Chars is the JavaScript length (UTF-16 units; an image counts
	// imageChars).
	Chars int
	// Tokens is the estimate, scaled to the recorded input when known.
	Tokens int
	// Share is Tokens / Composition.Total.
	Share float64
	// InPrefix says whether the part lies inside the request's cached
	// prefix (PrefixKnown false: no usage recorded, unknown). A history
	// part split by the boundary shows as two parts.
	InPrefix    bool
	PrefixKnown bool
}

// Composition is a request split into what fills it.
type Composition struct {
	// Total is the sum of the parts' tokens.
	Total int
	// RecordedInput is the prompt size the provider reported for the
	// request (input + cacheRead + cacheWrite); HasRecorded false when no
	// usage was recorded. When recorded, the estimates are scaled to it.
	RecordedInput int
	HasRecorded   bool
	// CacheRead is the recorded cached prefix in tokens.
	CacheRead int
	// UsageEntry is the id of the assistant reply whose usage was used.
	UsageEntry string
	// Estimated is the unscaled chars/4 estimate of the whole request.
	Estimated int
	Parts     []Part
}

// segment is a stretch of the request in order, before aggregation.
type segment struct {
	kind, label, ref string
	chars            int
}

// Compose splits a rebuilt request: each tool definition, the system
// prompt by Preset item where pi-forge compiled it (the rewrite's spans),
// else by Pi's sections, the messages by role with tool results by tool,
// capability updates by capability and images apart. usage is the
// request's recorded usage (nil: none; RequestUsage finds it): the chars/4
// estimates are then scaled so that they sum to its input + cacheRead +
// cacheWrite (largest remainders, so the parts add up exactly), and each
// part is placed inside or outside the cacheRead prefix. Pure: it reads
// only r.
func Compose(r *replay.Request, usage *turndiff.Usage) Composition {
	segs := segments(r)
	var c Composition
	chars := 0
	for _, s := range segs {
		chars += s.chars
	}
	c.Estimated = (chars + 3) / 4
	if usage != nil {
		recorded := usage.Input + usage.CacheRead + usage.CacheWrite
		if recorded > 0 && !math.IsInf(recorded, 0) && !math.IsNaN(recorded) {
			c.HasRecorded, c.RecordedInput = true, int(math.Round(recorded))
			c.CacheRead, c.UsageEntry = int(math.Round(usage.CacheRead)), usage.EntryID
		}
	}
	type key struct {
		kind, label, ref string
		in               bool
	}
	index := map[key]int{}
	add := func(s segment, in bool) {
		k := key{s.kind, s.label, s.ref, in}
		i, ok := index[k]
		if !ok {
			i = len(c.Parts)
			index[k] = i
			c.Parts = append(c.Parts, Part{Kind: s.kind, Label: s.label, Ref: s.ref, InPrefix: in, PrefixKnown: c.HasRecorded})
		}
		c.Parts[i].Chars += s.chars
	}
	// The boundary in characters: the cached share of the recorded input.
	boundary := 0
	if c.HasRecorded && chars > 0 {
		boundary = int(math.Round(float64(min(c.CacheRead, c.RecordedInput)) / float64(c.RecordedInput) * float64(chars)))
	}
	at := 0
	for _, s := range segs {
		if !c.HasRecorded {
			add(s, false)
			continue
		}
		switch {
		case at+s.chars <= boundary:
			add(s, true)
		case at >= boundary:
			add(s, false)
		default: // the boundary falls inside: both halves
			head := s
			head.chars = boundary - at
			tail := s
			tail.chars = s.chars - head.chars
			add(head, true)
			add(tail, false)
		}
		at += s.chars
	}
	c.distribute(chars)
	return c
}

// distribute gives each part its tokens: chars/4 rounded up, or, with a
// recorded input, the part's share of it by largest remainders; then the
// total and shares.
func (c *Composition) distribute(chars int) {
	if !c.HasRecorded || chars == 0 {
		for i := range c.Parts {
			c.Parts[i].Tokens = (c.Parts[i].Chars + 3) / 4
			c.Total += c.Parts[i].Tokens
		}
	} else {
		type rem struct {
			i    int
			frac float64
		}
		rems := make([]rem, len(c.Parts))
		given := 0
		for i := range c.Parts {
			exact := float64(c.Parts[i].Chars) * float64(c.RecordedInput) / float64(chars)
			c.Parts[i].Tokens = int(math.Floor(exact))
			given += c.Parts[i].Tokens
			rems[i] = rem{i, exact - math.Floor(exact)}
		}
		sort.SliceStable(rems, func(a, b int) bool { return rems[a].frac > rems[b].frac })
		for k := 0; given < c.RecordedInput && len(rems) > 0; k = (k + 1) % len(rems) {
			c.Parts[rems[k].i].Tokens++
			given++
		}
		c.Total = given
	}
	for i := range c.Parts {
		if c.Total > 0 {
			c.Parts[i].Share = math.Round(float64(c.Parts[i].Tokens)/float64(c.Total)*1e4) / 1e4
		}
	}
}

// segments lists the request's stretches in cache-prefix order: tools,
// system prompt, messages.
func segments(r *replay.Request) []segment {
	var segs []segment
	if r == nil || r.Payload == nil {
		return nil
	}
	if tv, ok := r.Payload.Get("tools"); ok {
		list, _ := tv.([]any)
		for _, t := range list {
			name := ""
			if o, ok := t.(*jsonv.Object); ok {
				nv, _ := o.Get("name")
				name, _ = nv.(string)
			}
			segs = append(segs, segment{PartTool, name, name, jsonv.UTF16Len(jsonv.Stringify(t))})
		}
	}
	if sv, ok := r.Payload.Get("system"); ok {
		segs = append(segs, systemSegments(r, jsonv.ToString(sv))...)
	}
	mv, _ := r.Payload.Get("messages")
	msgs, _ := mv.([]any)
	var keys []string
	for _, b := range r.Turn.Turn.Blocks {
		if strings.HasPrefix(b.Key, turndiff.KeyMessage) {
			keys = append(keys, b.Key)
		}
	}
	for k, m := range msgs {
		var origin turndiff.Origin
		if k < len(keys) {
			origin = r.Turn.Blocks[keys[k]]
		}
		obj, _ := m.(*jsonv.Object)
		segs = append(segs, messageSegments(obj, origin)...)
	}
	out := segs[:0]
	for _, s := range segs {
		if s.chars > 0 {
			out = append(out, s)
		}
	}
	return out
}

// systemSegments splits the system prompt: by the spans of a rewrite
// (Preset items, the base prompt; separators go with the part before),
// else by the replayed prompt's content and sections found in order in the
// text, else whole.
func systemSegments(r *replay.Request, text string) []segment {
	total := jsonv.UTF16Len(text)
	whole := []segment{{PartSystem, "system prompt", "", total}}
	if spans := r.Turn.Spans[turndiff.KeySystem]; len(spans) > 0 {
		var segs []segment
		at := 0
		for _, sp := range spans {
			n := sp.End - sp.Start
			if sp.Start < at || sp.End > total || n < 0 {
				return whole // spans that do not fit the text: do not guess
			}
			if gap := sp.Start - at; gap > 0 {
				n += gap
			}
			at = sp.End
			o := sp.Origin
			switch {
			case o.Kind == "" && len(segs) > 0:
				segs[len(segs)-1].chars += n
				continue
			case o.Kind == turndiff.CausePresetItem:
				segs = append(segs, segment{PartPresetItem, firstNonEmpty(o.Label, o.ItemID), o.ItemID, n})
			case o.Kind == turndiff.CauseRegex:
				segs = append(segs, segment{PartSystem, "after regex rules " + o.Label, "", n})
			default:
				segs = append(segs, segment{PartSystem, firstNonEmpty(o.Label, "system prompt"), "", n})
			}
		}
		if rest := total - at; rest > 0 {
			segs = append(segs, segment{PartSystem, "system prompt (after the compiled part)", "", rest})
		}
		return segs
	}
	sp := r.SystemPrompt
	if sp == nil || r.Rewritten {
		return whole
	}
	var pieces []segment
	if sp.Content != "" {
		pieces = append(pieces, segment{PartSystem, "content", "", 0})
	}
	values := []string{sp.Content}
	for _, sec := range sp.Sections {
		if sec.Value == "" {
			continue
		}
		pieces = append(pieces, segment{PartSystemSection, sec.Name, sec.Name, 0})
		values = append(values, sec.Value)
	}
	if sp.Content == "" {
		values = values[1:]
	}
	if len(pieces) == 0 {
		return whole
	}
	// Find each piece in order (UTF-16 offsets); what lies between two
	// goes with the one before.
	starts := make([]int, len(pieces))
	from := 0
	for i, v := range values {
		k := strings.Index(text[from:], v)
		if k < 0 {
			return whole
		}
		starts[i] = jsonv.UTF16Len(text[:from+k])
		from += k + len(v)
	}
	if starts[0] != 0 {
		pieces = append([]segment{{PartSystem, "system prompt", "", 0}}, pieces...)
		starts = append([]int{0}, starts...)
	}
	for i := range pieces {
		end := total
		if i+1 < len(pieces) {
			end = starts[i+1]
		}
		pieces[i].chars = end - starts[i]
	}
	return pieces
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// messageSegments splits one wire message: its text by role (a tool
// result's under its tool, a capability update's under its capability),
// its images apart.
func messageSegments(m *jsonv.Object, origin turndiff.Origin) []segment {
	if m == nil {
		return nil
	}
	role := m.GetString("role")
	kind, label, ref := PartHistory, role, ""
	switch {
	case origin.Kind == turndiff.CauseCapability:
		kind, label, ref = PartCapability, firstNonEmpty(origin.Label, origin.CapabilityID, "capability update"), origin.CapabilityID
	case role == session.RoleToolResult:
		name := m.GetString("toolName")
		kind, label, ref = PartToolResult, name, name
	}
	text, images := 0, 0
	cv, _ := m.Get("content")
	switch c := cv.(type) {
	case string:
		text = jsonv.UTF16Len(c)
	case []any:
		for _, bv := range c {
			b, _ := bv.(*jsonv.Object)
			switch b.GetString("type") {
			case session.BlockText:
				text += jsonv.UTF16Len(b.GetString("text"))
			case session.BlockThinking:
				text += jsonv.UTF16Len(b.GetString("thinking"))
			case session.BlockToolCall:
				args, _ := b.Get("arguments")
				text += jsonv.UTF16Len(b.GetString("name")) + jsonv.UTF16Len(jsonv.Stringify(args))
			case session.BlockImage:
				images++
			}
		}
	}
	segs := []segment{{kind, label, ref, text}}
	if images > 0 {
		segs = append(segs, segment{PartImage, "images", "", images * imageChars})
	}
	return segs
}

// RequestUsage is the recorded usage of a rebuilt request: the answering
// assistant's own for a request rebuilt for an assistant entry, else that
// of the first assistant reply to the entry (its child in the tree) that
// recorded one. nil when none did. It reads s, not the disk.
func RequestUsage(s *session.Session, r *replay.Request) *turndiff.Usage {
	if r.ForAssistant {
		return r.Usage
	}
	for i := r.Entry + 1; i < len(s.Entries); i++ {
		e := &s.Entries[i]
		if e.Type != session.TypeMessage || e.Role != session.RoleAssistant || s.ParentIndex(i) != r.Entry {
			continue
		}
		raw := e.UsageRaw()
		if len(raw) == 0 || raw[0] != '{' {
			continue
		}
		var t catalog.Usage
		stats.ReadUsageTokens(raw, &t)
		if t.Input+t.CacheRead+t.CacheWrite+t.Output == 0 {
			continue // an aborted request: nothing was read
		}
		u := turndiff.Usage{EntryID: e.ID, Index: i, Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite}
		return &u
	}
	return nil
}
