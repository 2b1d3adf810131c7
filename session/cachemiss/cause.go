package cachemiss

import (
	"bytes"
	"math"
	"runtime"
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

// Explain finds the cause of each miss of s (found by Detect). A request
// that only appended messages to the previous one, or sits on another
// branch, is decided from the entries between them; for the others the
// previous request and this one are rebuilt as opts says and diffed, and
// the first changed block inside what the previous request held decides.
func Explain(s *session.Session, misses []Miss, opts replay.RequestOptions) []Cause {
	t := sessionTree{s}
	kind, fork := classify(t, misses, opts.Forge != nil && presetUsed(s.Entries))
	out := make([]Cause, len(misses))
	var need []int
	for i := range misses {
		if kind[i] == rebuild {
			need = append(need, i)
		}
	}
	short := func() {
		for i := range misses {
			if kind[i] != rebuild {
				out[i] = explainShort(t, &misses[i], kind[i], fork[i])
			}
		}
	}
	if len(need) == 0 {
		short()
		return out
	}
	// The short causes (a long session's thousands) are found while the
	// requests of the others are rebuilt: each writes only its own out[i].
	var g session.FaultGroup
	g.Go(short)
	explainRebuilt(s, misses, need, opts, out)
	g.Wait()
	return out
}

// tree is what the causes read of a session: its entries in file order
// and the id index (session.Session's, or a Scanner's).
type tree interface {
	at(i int) *session.Entry
	indexOf(id string) (int, bool)
}

type sessionTree struct{ s *session.Session }

func (t sessionTree) at(i int) *session.Entry       { return &t.s.Entries[i] }
func (t sessionTree) indexOf(id string) (int, bool) { return t.s.IndexOf(id) }

// classify finds each miss's shortcut (and, for a branched one, where
// the branches part). rewritten says pi-forge rewrote the requests with a
// Preset: its rewrite varies from turn to turn on its own (a history-stage
// regex rule reaches a message once it is history, a trailing item moves
// behind each new message), so appending messages is no proof that the
// prefix held, and such requests are rebuilt.
func classify(t tree, misses []Miss, rewritten bool) ([]shortcut, []int) {
	kind := make([]shortcut, len(misses))
	fork := make([]int, len(misses))
	for i := range misses {
		kind[i], fork[i] = between(t, &misses[i])
		if rewritten && kind[i] == appended {
			kind[i] = rebuild
		}
	}
	return kind, fork
}

// presetUsed reports whether any entry makes a Preset active
// (pi-forge's prompt-stack state naming one).
func presetUsed(entries []session.Entry) bool {
	for i := range entries {
		e := &entries[i]
		if e.Type != session.TypeCustom {
			continue
		}
		if ct, _ := e.Field("customType").Str(); ct != "pi-forge-prompt-stack-state" {
			continue
		}
		if id, ok := rawjsonString(e.Field("data"), "activeStackId"); ok && id != "" {
			return true
		}
	}
	return false
}

// explainShort is the cause of a miss decided without rebuilding: a
// request that only appended messages kept the previous prefix, so what
// remains is thinking, idle, model or the provider. Extensions record
// what changes their rewrite (pi-forge's Preset and capability events are
// custom entries), so this holds for rewritten sessions too; only a
// rewrite that varies on its own (a Preset item showing the time) is not
// seen this way. A request on another branch is branch navigation.
func explainShort(t tree, m *Miss, kind shortcut, fork int) Cause {
	if kind == appended {
		return decide(t, m, nil, false, nil, true)
	}
	tc := &turndiff.Cause{Kind: turndiff.CauseBranch, Detail: "the previous request is on another branch"}
	if fork >= 0 {
		id := t.at(fork).ID
		tc.Detail += "; they part after entry " + id
		tc.EntryID = id
	}
	return decide(t, m, nil, true, tc, true)
}

// explainRebuilt finds the causes of the misses at need (indexes into
// misses, in order) from their rebuilt requests: the misses are cut into
// runs, one run at a time per core, and a run keeps only the request it
// built last (the next miss's previous request is often this one's), so
// memory holds a few requests, not every one — a request of a long
// session is megabytes. Their contexts mostly lie on one branch: their
// paths are prefixes of one path, not a walk each.
func explainRebuilt(s *session.Session, misses []Miss, need []int, opts replay.RequestOptions, out []Cause) {
	deepest := -1
	for _, i := range need {
		deepest = max(deepest, misses[i].Index)
	}
	paths := session.NewBranchPaths(s, deepest)
	paths.Decode(s)
	runs := min(len(need), 4*runtime.GOMAXPROCS(0))
	session.InParallel(runs, func(r int) {
		lo, hi := r*len(need)/runs, (r+1)*len(need)/runs
		var last built
		lastIndex := -1
		request := func(idx int) built {
			if idx == lastIndex {
				return last
			}
			var b built
			at := idx
			if s.Entries[idx].Type == session.TypeUsage {
				// A cache_warm re-sent the context as it stood at its parent.
				at = warmedAt(s, idx)
			}
			if at < 0 {
				b.err = errNoRequest
			} else {
				b.r, b.err = replay.RequestOnBranch(s, at, opts, paths)
			}
			last, lastIndex = b, idx
			return b
		}
		for _, i := range need[lo:hi] {
			m := &misses[i]
			p := request(m.PreviousIndex)
			c := request(m.Index)
			out[i] = explainDiff(s, m, p, c)
		}
	})
}

// built is one rebuilt request or why it could not be.
type built struct {
	r   *replay.Request
	err error
}

// explainDiff decides a miss from its two rebuilt requests.
func explainDiff(s *session.Session, m *Miss, p, c built) Cause {
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
	if breaks && tc == nil {
		tc = lostOrigin(d, p.r)
	}
	out := decide(sessionTree{s}, m, d, breaks, tc, p.r != nil && c.r != nil)
	if breaks && tc != nil && (tc.Kind == turndiff.CauseCapability || tc.Kind == turndiff.CausePreset) {
		presetOrCapability(s, m, d, c.r, &out)
	}
	if out.Kind == KindSystem && tc != nil && tc.Kind == turndiff.CauseSystemPrompt {
		if name, ok := changedSection(s, p.r.ContextIndex, c.r.ContextIndex); ok {
			out.Ref = name
			out.Detail += " (section " + name + ")"
		}
	}
	return out
}

// lostOrigin is what produced the first block of the previous request
// that fell out of the cached prefix, when a Preset item, a regex rule or
// a capability did (nil otherwise): a Preset's trailing user item moves
// behind each new message, so the block that changed first in the new
// request is only the turn's growth, not the cause.
func lostOrigin(d *turndiff.Diff, prev *replay.Request) *turndiff.Cause {
	blocks := prev.Turn.Turn.Blocks
	if d.Boundary < 0 || d.Boundary >= len(blocks) {
		return nil
	}
	key := blocks[d.Boundary].Key
	o, ok := prev.Turn.OriginAt(key, 0)
	if !ok {
		return nil
	}
	tc := &turndiff.Cause{Kind: o.Kind, Block: key, ItemID: o.ItemID, EntryID: o.EntryID, PresetID: o.PresetID, CapabilityID: o.CapabilityID}
	switch o.Kind {
	case turndiff.CausePresetItem:
		tc.Detail = "preset item " + o.Label + " moved out of the cached prefix"
	case turndiff.CauseRegex:
		tc.Detail = "regex rules rewrote text the previous request had cached"
	case turndiff.CauseCapability:
		tc.Detail = o.Label
	default:
		return nil
	}
	return tc
}

// presetOrCapability settles a break where a Preset switch and a
// capability change both lie between the requests: the text at the first
// change decides — a capability's section is the capability's, anything
// else the Preset's, which rewrote the system prompt from its first item
// — and the other is listed.
func presetOrCapability(s *session.Session, m *Miss, d *turndiff.Diff, r *replay.Request, c *Cause) {
	preset, capability := -1, -1
	for i := s.ParentIndex(m.Index); i > m.PreviousIndex && i >= 0; i = s.ParentIndex(i) {
		e := &s.Entries[i]
		if e.Type != session.TypeCustom {
			continue
		}
		switch ct, _ := e.Field("customType").Str(); ct {
		case "pi-forge-prompt-stack-state":
			if preset < 0 {
				preset = i
			}
		case "pi-forge-capability-event":
			if capability < 0 {
				capability = i
			}
		}
	}
	if preset < 0 || capability < 0 {
		return
	}
	row, offset, ok := turndiff.FirstChange(d)
	if !ok {
		return
	}
	key := ""
	if b := d.Blocks[row].After; b != nil {
		key = b.Key
	}
	origin, known := r.Turn.OriginAt(key, offset)
	if c.Kind == KindCapability && !(known && origin.Kind == turndiff.CauseCapability) {
		id, _ := rawjsonString(s.Entries[preset].Field("data"), "activeStackId")
		also := append([]string{KindCapability}, c.Also...)
		*c = Cause{Kind: KindPreset, Ref: id, Detail: "preset " + id + " became active", Also: also, Turn: c.Turn}
		return
	}
	if c.Kind == KindPreset && !containsKind(c.Also, KindCapability) {
		c.Also = append(c.Also, KindCapability)
	}
}

// changedSection names the first section of the system prompt at b (in
// prompt order) that differs from the one of the same name at a, or the
// first of a's that b dropped.
func changedSection(s *session.Session, a, b int) (string, bool) {
	if a < 0 || b < 0 {
		return "", false
	}
	pa, err := replay.SystemPromptAt(s, a)
	if err != nil {
		return "", false
	}
	pb, err := replay.SystemPromptAt(s, b)
	if err != nil {
		return "", false
	}
	before := make(map[string]string, len(pa.Sections))
	for _, sec := range pa.Sections {
		before[sec.Name] = sec.Value
	}
	after := make(map[string]bool, len(pb.Sections))
	for _, sec := range pb.Sections {
		after[sec.Name] = true
		if v, ok := before[sec.Name]; !ok || v != sec.Value {
			return sec.Name, true
		}
	}
	for _, sec := range pa.Sections {
		if !after[sec.Name] {
			return sec.Name, true
		}
	}
	return "", false
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
func decide(t tree, m *Miss, d *turndiff.Diff, breaks bool, tc *turndiff.Cause, rebuilt bool) Cause {
	var c Cause
	add := func(kind string) {
		if kind != c.Kind && !containsKind(c.Also, kind) {
			c.Also = append(c.Also, kind)
		}
	}
	fallback := providerFallback(t.at(m.Index))
	switch {
	case breaks && tc != nil:
		c = fromTurnCause(tc)
	case breaks:
		c = fromBlock(d)
	case !rebuilt:
		c = Cause{Kind: KindUnknown, Detail: "the requests could not be rebuilt"}
	}
	thinking := thinkingChangedBefore(t, m)
	if c.Kind == "" {
		switch {
		case thinking >= 0:
			e := t.at(thinking)
			c = Cause{Kind: KindThinking, Detail: "thinking level set to " + jsString(e.Field("thinkingLevel")), Ref: e.ID}
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
		if tc.PresetID != "" && tc.RuleID != "" {
			c.Ref = tc.PresetID + "/regex/" + tc.RuleID
		}
	case turndiff.CauseCapability:
		c.Kind, c.Ref = KindCapability, tc.CapabilityID
	case turndiff.CauseTools:
		c.Kind, c.Ref = KindTools, tc.EntryID
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
	for _, k := range tc.Also {
		if kind := fromTurnCause(&turndiff.Cause{Kind: k}).Kind; kind != c.Kind && !containsKind(c.Also, kind) {
			c.Also = append(c.Also, kind)
		}
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
func thinkingChangedBefore(t tree, m *Miss) int {
	const maxWalk = 4096
	i := m.Index
	for n := 0; n < maxWalk; n++ {
		p := t.at(i).ParentID
		if p == "" {
			return -1
		}
		k, ok := t.indexOf(p)
		if !ok || k == m.PreviousIndex {
			return -1
		}
		if t.at(k).Type == session.TypeThinkingLevelChange {
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
func between(t tree, m *Miss) (shortcut, int) {
	if t.at(m.PreviousIndex).Type != session.TypeMessage {
		return rebuild, -1
	}
	up := func(i int) int {
		p := t.at(i).ParentID
		if p == "" {
			return -1
		}
		k, ok := t.indexOf(p)
		if !ok || k >= i {
			return -2 // unknown parent, or a parent after its child
		}
		return k
	}
	plain := true
	cur := up(m.Index)
	for cur > m.PreviousIndex {
		e := t.at(cur)
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
