package cachemiss

import (
	"bytes"
	"math"
	"strings"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// Kinds of a break's cause (the cache report's cause.kind).
const (
	KindIdle        = "idle"         // the gap exceeded the cache lifetime
	KindModel       = "model"        // another model answered
	KindThinking    = "thinking"     // the thinking / reasoning settings changed
	KindTools       = "tools"        // the tool set changed
	KindSystem      = "system"       // a system prompt section (or the Preset item that produced it) changed
	KindPreset      = "preset"       // another Preset became active
	KindCapability  = "capability"   // a capability was activated, deactivated or reset
	KindRegex       = "regex"        // a regex rule rewrote the text differently
	KindHistoryEdit = "history-edit" // a context edit, a compaction or branch navigation
	KindProvider    = "provider"     // the request's content did not change before the loss
	KindUnknown     = "unknown"      // the data does not say
)

// Kinds lists every kind, in the order the report's tables use.
var Kinds = []string{KindIdle, KindModel, KindThinking, KindTools, KindSystem, KindPreset, KindCapability,
	KindRegex, KindHistoryEdit, KindProvider, KindUnknown}

// ShortLifetimeMs and LongLifetimeMs are the prompt cache's lifetimes:
// five minutes by default, an hour after long-retention writes.
const (
	ShortLifetimeMs = 5 * 60 * 1000
	LongLifetimeMs  = 60 * 60 * 1000
)

// Cause is why a break happened: the kind that decides (the first changed
// block's, else idle, model or provider), a one-line detail, a ref naming
// the item, activation, rule or section (empty when not applicable) and
// the other kinds that also apply.
type Cause struct {
	Kind   string
	Detail string
	Ref    string
	Also   []string
	// Turn is the diff's cause, when the rebuilt requests gave one.
	Turn *turndiff.Cause
}

// Line is the detail with the other kinds that apply: "…; also idle, model".
func (c *Cause) Line() string {
	if len(c.Also) == 0 {
		return c.Detail
	}
	return c.Detail + "; also " + strings.Join(c.Also, ", ")
}

// Idle reports whether the gap before m exceeded the cache's lifetime.
func (m *Miss) Idle() bool {
	if math.IsNaN(m.IdleMs) {
		return false
	}
	if m.LongRetention {
		return m.IdleMs > LongLifetimeMs
	}
	return m.IdleMs > ShortLifetimeMs
}

// Explain finds the cause of each miss of s (found by Detect): the
// previous request and this one are rebuilt as opts says (each once, on
// every core) and diffed; the first changed block inside what the previous
// request held decides.
func Explain(s *session.Session, misses []Miss, opts replay.RequestOptions) []Cause {
	// A request that only appended messages to the previous one kept the
	// previous prefix: nothing needs rebuilding to know that. Extensions
	// record what changes their rewrite (pi-forge's Preset and capability
	// events are custom entries), so this holds for rewritten sessions
	// too; only a rewrite that varies on its own (a Preset item showing
	// the time) is not seen this way.
	plain := make([]bool, len(misses))
	fork := make([]int, len(misses))
	kind := make([]shortcut, len(misses))
	for i := range misses {
		kind[i], fork[i] = between(s, &misses[i])
		plain[i] = kind[i] != rebuild
	}
	need := []int{}
	seen := map[int]int{}
	for i := range misses {
		if plain[i] {
			continue
		}
		for _, k := range [2]int{misses[i].PreviousIndex, misses[i].Index} {
			if _, ok := seen[k]; !ok {
				seen[k] = len(need)
				need = append(need, k)
			}
		}
	}
	type built struct {
		r   *replay.Request
		err error
	}
	requests := make([]built, len(need))
	session.InParallel(len(need), func(j int) {
		idx := need[j]
		if e := &s.Entries[idx]; e.Type == session.TypeUsage {
			// A cache_warm re-sent the context as it stood at its parent.
			idx = warmedAt(s, idx)
		}
		if idx < 0 {
			requests[j].err = errNoRequest
			return
		}
		requests[j].r, requests[j].err = replay.RequestWith(s, idx, opts)
	})
	out := make([]Cause, len(misses))
	session.InParallel(len(misses), func(i int) {
		m := &misses[i]
		switch kind[i] {
		case appended:
			out[i] = decide(s, m, nil, false, nil, true)
			return
		case branched:
			// What the diff would name: the requests part where the
			// branches do.
			tc := &turndiff.Cause{Kind: turndiff.CauseBranch, Detail: "the previous request is on another branch"}
			if fork[i] >= 0 {
				tc.Detail += "; they part after entry " + s.Entries[fork[i]].ID
				tc.EntryID = s.Entries[fork[i]].ID
			}
			out[i] = decide(s, m, nil, true, tc, true)
			return
		}
		p, c := requests[seen[m.PreviousIndex]], requests[seen[m.Index]]
		var d *turndiff.Diff
		var tc *turndiff.Cause
		breaks := false
		if p.err == nil && c.err == nil {
			diff := turndiff.DiffTurns(&p.r.Turn.Turn, &c.r.Turn.Turn)
			d = &diff
			breaks = turndiff.BreaksCache(d, &p.r.Turn.Turn)
			a := &replay.Resolved{Session: s, Request: p.r, Index: m.PreviousIndex, Turn: p.r.Turn}
			b := &replay.Resolved{Session: s, Request: c.r, Index: m.Index, Turn: c.r.Turn}
			tc = replay.ExplainDiff(a, b, d)
		}
		out[i] = decide(s, m, d, breaks, tc, p.r != nil && c.r != nil)
	})
	return out
}

type noRequest struct{}

func (noRequest) Error() string { return "no request to rebuild" }

var errNoRequest error = noRequest{}

// warmedAt is the entry whose context a usage entry at i re-sent: its
// parent (-1 when it has none in the file).
func warmedAt(s *session.Session, i int) int {
	if p := s.Entries[i].ParentID; p != "" {
		if k, ok := s.IndexOf(p); ok {
			return k
		}
	}
	return -1
}

// decide picks the kind that decides and lists the others.
func decide(s *session.Session, m *Miss, d *turndiff.Diff, breaks bool, tc *turndiff.Cause, rebuilt bool) Cause {
	var c Cause
	add := func(kind string) {
		if kind != c.Kind && !containsKind(c.Also, kind) {
			c.Also = append(c.Also, kind)
		}
	}
	fallback := providerFallback(&s.Entries[m.Index])
	switch {
	case breaks && tc != nil:
		c = fromTurnCause(tc)
	case breaks:
		c = fromBlock(d)
	case !rebuilt:
		c = Cause{Kind: KindUnknown, Detail: "the requests could not be rebuilt"}
	}
	thinking := thinkingChangedBefore(s, m)
	if c.Kind == "" {
		switch {
		case thinking >= 0:
			c = Cause{Kind: KindThinking, Detail: "thinking level set to " + jsString(s.Entries[thinking].Field("thinkingLevel")), Ref: s.Entries[thinking].ID}
		case m.Idle():
			c = Cause{Kind: KindIdle, Detail: idleDetail(m)}
		case m.ModelChanged:
			c = Cause{Kind: KindModel, Detail: "model " + m.PreviousModel + " → " + m.Provider + "/" + m.Model}
		default:
			c = Cause{Kind: KindProvider, Detail: "the request's content is unchanged before the loss: the provider did not reuse its cache"}
			if fallback {
				c.Detail = "Anthropic message threads fell back (anthropic_thread_fallback)"
			}
		}
	} else if c.Kind == KindUnknown && m.Idle() {
		c = Cause{Kind: KindIdle, Detail: idleDetail(m), Also: []string{KindUnknown}}
	}
	if thinking >= 0 {
		add(KindThinking)
	}
	if m.Idle() {
		add(KindIdle)
	}
	if m.ModelChanged {
		add(KindModel)
	}
	if fallback {
		add(KindProvider)
	}
	c.Turn = tc
	return c
}

func containsKind(list []string, k string) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

// idleDetail says how long the gap was against which lifetime.
func idleDetail(m *Miss) string {
	life := "5 min"
	if m.LongRetention {
		life = "1 h (long-retention writes)"
	}
	return "idle " + formatDuration(m.IdleMs) + " since the previous request, past the cache lifetime of " + life
}

// formatDuration prints ms as "12m05s" or "1h02m".
func formatDuration(ms float64) string {
	s := int64(ms / 1000)
	h, mnt, sec := s/3600, s/60%60, s%60
	if h > 0 {
		return itoa(h) + "h" + pad2(mnt) + "m"
	}
	return itoa(mnt) + "m" + pad2(sec) + "s"
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}

// providerFallback reports whether the assistant message's diagnostics
// name anthropic_thread_fallback.
func providerFallback(e *session.Entry) bool {
	diag := e.MessageField("diagnostics")
	return len(diag) > 0 && diag[0] == '[' && bytes.Contains(diag, []byte("anthropic_thread_fallback"))
}

// fromTurnCause maps a diff cause to the report's kinds and refs.
func fromTurnCause(tc *turndiff.Cause) Cause {
	c := Cause{Detail: tc.Detail}
	switch tc.Kind {
	case turndiff.CausePresetItem:
		c.Kind, c.Ref = KindSystem, tc.ItemID
		if tc.PresetID != "" && tc.ItemID != "" {
			c.Ref = tc.PresetID + "/" + tc.ItemID
		}
	case turndiff.CauseRegex:
		c.Kind, c.Ref = KindRegex, tc.RuleID
	case turndiff.CauseCapability:
		c.Kind, c.Ref = KindCapability, tc.CapabilityID
	case turndiff.CauseTools:
		c.Kind = KindTools
	case turndiff.CauseModel:
		c.Kind = KindModel
	case turndiff.CausePreset:
		c.Kind, c.Ref = KindPreset, tc.PresetID
	case turndiff.CauseSystemPrompt:
		c.Kind, c.Ref = KindSystem, tc.Block
	case turndiff.CauseCompaction, turndiff.CauseContextEdit, turndiff.CauseBranch:
		c.Kind, c.Ref = KindHistoryEdit, tc.EntryID
	default:
		c.Kind = KindUnknown
	}
	return c
}

// fromBlock names the kind from the first changed block's key when the
// diff gave no cause of its own.
func fromBlock(d *turndiff.Diff) Cause {
	row, _, ok := turndiff.FirstChange(d)
	if !ok {
		return Cause{}
	}
	b := &d.Blocks[row]
	key := ""
	if b.After != nil {
		key = b.After.Key
	} else if b.Before != nil {
		key = b.Before.Key
	}
	field := strings.TrimPrefix(key, turndiff.KeyRequestField)
	switch {
	case key == turndiff.KeyRequestField+"model":
		return Cause{Kind: KindModel, Detail: "the request's model changed"}
	case key == turndiff.KeyRequestField+"tools":
		return Cause{Kind: KindTools, Detail: "the tool declarations changed"}
	case strings.HasPrefix(key, turndiff.KeyRequestField) &&
		(strings.Contains(field, "thinking") || strings.Contains(field, "reasoning") || strings.Contains(field, "effort")):
		return Cause{Kind: KindThinking, Detail: "the request's " + field + " changed", Ref: key}
	case strings.HasPrefix(key, "system"):
		return Cause{Kind: KindSystem, Detail: "the system prompt changed (" + key + ")", Ref: key}
	case strings.HasPrefix(key, "message-"):
		return Cause{Kind: KindHistoryEdit, Detail: "an earlier message changed (" + key + ")", Ref: key}
	}
	return Cause{Kind: KindUnknown, Detail: "block " + key + " changed", Ref: key}
}

// thinkingChangedBefore is the last thinking_level_change between m's
// previous request and m on m's branch (-1 when none): walked up the
// parents from m, at most maxWalk entries.
func thinkingChangedBefore(s *session.Session, m *Miss) int {
	const maxWalk = 4096
	i := m.Index
	for n := 0; n < maxWalk; n++ {
		p := s.Entries[i].ParentID
		if p == "" {
			return -1
		}
		k, ok := s.IndexOf(p)
		if !ok || k == m.PreviousIndex {
			return -1
		}
		if s.Entries[k].Type == session.TypeThinkingLevelChange {
			return k
		}
		i = k
	}
	return -1
}

// shortcut is what the entries between two requests say without
// rebuilding them.
type shortcut int

const (
	rebuild  shortcut = iota // something else lies between: rebuild both
	appended                 // only messages were appended
	branched                 // the previous request is on another branch
)

// between classifies m's request against the previous one: appended when
// the previous request is m's ancestor and every entry between them is a
// user, assistant or tool-result message, a label, a session name or a
// usage record; branched (with the last entry the two branches share, -1
// for none) when the previous request is not m's ancestor; else rebuild.
// The walks go up the parents, which Pi writes before their children: a
// parent after its child (a hand-made file) means rebuild.
func between(s *session.Session, m *Miss) (shortcut, int) {
	if s.Entries[m.PreviousIndex].Type != session.TypeMessage {
		return rebuild, -1
	}
	up := func(i int) int {
		p := s.Entries[i].ParentID
		if p == "" {
			return -1
		}
		k, ok := s.IndexOf(p)
		if !ok || k >= i {
			return -2 // unknown parent, or a parent after its child
		}
		return k
	}
	plain := true
	cur := up(m.Index)
	for cur > m.PreviousIndex {
		e := &s.Entries[cur]
		switch e.Type {
		case session.TypeMessage:
			switch e.Role {
			case session.RoleUser, session.RoleAssistant, session.RoleToolResult:
			default:
				plain = false
			}
		case session.TypeLabel, session.TypeSessionInfo, session.TypeUsage:
		default:
			plain = false
		}
		cur = up(cur)
	}
	switch {
	case cur == m.PreviousIndex && plain:
		return appended, -1
	case cur == m.PreviousIndex || cur == -2:
		return rebuild, -1
	}
	// Not an ancestor: find where the branches part.
	a, b := cur, m.PreviousIndex
	for a != b && a >= 0 && b >= 0 {
		if a > b {
			a = up(a)
		} else {
			b = up(b)
		}
	}
	if a == -2 || b == -2 {
		return rebuild, -1
	}
	if a != b {
		return branched, -1
	}
	return branched, a
}
