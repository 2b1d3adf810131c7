package compare

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/internal/rawjson"
	"github.com/forgebench/forgebench/session/stats"
)

// ErrUnrelated reports two branches that share no entry: neither session
// is a fork of the other and they are not one session.
var ErrUnrelated = errors.New("the two entries share no ancestor")

// Side is one branch of a comparison: a session and the index of its leaf.
type Side struct {
	Session *session.Session
	Leaf    int
}

// Diff compares two branches after their fork point.
type Diff struct {
	// ForkPoint is the id of the deepest common ancestor ("" with
	// HasForkPoint false when the branches share no entry).
	ForkPoint    string
	HasForkPoint bool
	// A and B summarise what each branch holds after the fork point.
	A, B Summary
}

// Messages counts the message entries of a branch part.
type Messages struct {
	User      int
	Assistant int
	// Errors counts assistant replies that ended in an error
	// (stopReason "error") and tool results marked isError.
	Errors int
}

// NameCount is how often one tool was called.
type NameCount struct {
	Name  string
	Count int
}

// Tokens are the summed usage of a branch part.
type Tokens struct {
	Input, Output, CacheRead, CacheWrite float64
}

// Summary is what one branch holds after the fork point.
type Summary struct {
	// Leaf is the leaf's entry id, LeafIndex its index in Session.
	Leaf      string
	LeafIndex int
	// Indexes are the entries after the fork point, root first.
	Indexes  []int
	Entries  int
	Messages Messages
	// ToolCalls counts calls by tool name, most called first (then by name).
	ToolCalls []NameCount
	// FilesTouched are the paths of edit and write calls and the plain
	// paths bash commands write (BashPaths), first use first.
	FilesTouched []string
	Tokens       Tokens
	// Cost is the summed cost in USD (stored, or priced from the catalog
	// when a record has none); CostKnown is false when some usage could
	// not be priced.
	Cost      float64
	CostKnown bool
	// DurationMs is the wall time from the fork point (or the first entry
	// of the part) to the end of its last entry (an assistant reply ends
	// durationMs after its timestamp); DurationKnown is false without
	// valid timestamps.
	DurationMs    float64
	DurationKnown bool
	// Models are the provider/model of the assistant replies, first use
	// first.
	Models []string
	// LastText is the text of the last assistant reply that has text
	// (HasLastText false when none does).
	LastText    string
	HasLastText bool
}

// Branches compares the branches ending at a.Leaf and b.Leaf: the fork
// point is their deepest common ancestor — in one session by position in
// the tree, across a session and its fork by entry id (a fork copies the
// path it was made from with the same ids, so the entry it was forked from
// is the deepest shared one). Two branches that share nothing are an error
// wrapping ErrUnrelated. cat prices usage records without a cost (nil:
// left unpriced).
func Branches(a, b Side, cat *catalog.Catalog) (Diff, error) {
	pathA, pathB := a.Session.PathTo(a.Leaf), b.Session.PathTo(b.Leaf)
	if a.Leaf < 0 || b.Leaf < 0 {
		return Diff{}, fmt.Errorf("%w: an empty session has no branch", ErrUnrelated)
	}
	var d Diff
	forkA, forkB := -1, -1 // positions in pathA, pathB
	if a.Session == b.Session {
		for k := 0; k < len(pathA) && k < len(pathB) && pathA[k] == pathB[k]; k++ {
			forkA, forkB = k, k
		}
	} else {
		onA := make(map[string]int, len(pathA))
		for k, i := range pathA {
			if e := &a.Session.Entries[i]; e.HasID {
				onA[e.ID] = k
			}
		}
		for k := len(pathB) - 1; k >= 0; k-- {
			e := &b.Session.Entries[pathB[k]]
			if ka, ok := onA[e.ID]; ok && e.HasID {
				forkA, forkB = ka, k
				break
			}
		}
		if forkB < 0 {
			return Diff{}, fmt.Errorf("%w: %s and %s", ErrUnrelated, a.Session.Path, b.Session.Path)
		}
	}
	startA, startB := math.NaN(), math.NaN()
	if forkA >= 0 {
		fa := &a.Session.Entries[pathA[forkA]]
		d.ForkPoint, d.HasForkPoint = fa.ID, true
		startA = fa.TimestampMs()
		startB = b.Session.Entries[pathB[forkB]].TimestampMs()
	}
	restA, restB := pathA[forkA+1:], pathB[forkB+1:]
	if a.Session != b.Session {
		restA, restB = skipCopiedLabels(a.Session, restA), skipCopiedLabels(b.Session, restB)
	}
	d.A = Summarize(a.Session, a.Leaf, restA, startA, cat)
	d.B = Summarize(b.Session, b.Leaf, restB, startB, cat)
	return d, nil
}

// skipCopiedLabels leaves out the label entries a fork re-writes right
// after the path it copied: they are the parent's labels, not new work.
// A session that is no fork keeps them.
func skipCopiedLabels(s *session.Session, rest []int) []int {
	if _, fork := s.ParentSession(); !fork {
		return rest
	}
	for len(rest) > 0 && s.Entries[rest[0]].Type == session.TypeLabel {
		rest = rest[1:]
	}
	return rest
}

// Summarize counts the entries at indexes (a branch part, root first)
// whose branch ends at leaf; start is the fork point's time (NaN: the
// first entry's).
func Summarize(s *session.Session, leaf int, indexes []int, start float64, cat *catalog.Catalog) Summary {
	sum := Summary{LeafIndex: leaf, Indexes: indexes, Entries: len(indexes)}
	if leaf >= 0 && leaf < len(s.Entries) {
		sum.Leaf = s.Entries[leaf].ID
	}
	st := stats.EntriesStats(s, indexes, cat)
	sum.Tokens = Tokens{Input: st.Tokens.Input, Output: st.Tokens.Output, CacheRead: st.Tokens.CacheRead, CacheWrite: st.Tokens.CacheWrite}
	sum.Cost, sum.CostKnown = st.Cost, len(st.Unpriced) == 0

	parts := readParts(s, indexes)
	calls := map[string]int{}
	var order []string
	files, models := newOrderedSet(), newOrderedSet()
	end := math.Inf(-1)
	for _, p := range parts {
		sum.Messages.User += p.user
		sum.Messages.Assistant += p.assistant
		sum.Messages.Errors += p.errors
		for _, n := range p.calls {
			if calls[n] == 0 {
				order = append(order, n)
			}
			calls[n]++
		}
		files.add(p.files...)
		models.add(p.models...)
		end = math.Max(end, p.end)
	}
	for _, n := range order {
		sum.ToolCalls = append(sum.ToolCalls, NameCount{Name: n, Count: calls[n]})
	}
	sort.SliceStable(sum.ToolCalls, func(i, j int) bool {
		x, y := sum.ToolCalls[i], sum.ToolCalls[j]
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return x.Name < y.Name
	})
	sum.FilesTouched, sum.Models = files.list, models.list
	if len(indexes) == 0 {
		sum.DurationKnown = true
	} else {
		if math.IsNaN(start) {
			start = s.Entries[indexes[0]].TimestampMs()
		}
		if !math.IsNaN(start) && !math.IsInf(end, 0) && end >= start {
			sum.DurationMs, sum.DurationKnown = end-start, true
		}
	}
	for k := len(indexes) - 1; k >= 0; k-- {
		e := &s.Entries[indexes[k]]
		if e.Type != session.TypeMessage || e.Role != session.RoleAssistant {
			continue
		}
		if text, ok := assistantText(e.MessageRaw()); ok {
			sum.LastText, sum.HasLastText = text, true
			break
		}
	}
	return sum
}

// orderedSet keeps strings once, in first-seen order.
type orderedSet struct {
	seen map[string]bool
	list []string
}

func newOrderedSet() *orderedSet { return &orderedSet{seen: map[string]bool{}} }

func (o *orderedSet) add(xs ...string) {
	for _, x := range xs {
		if !o.seen[x] {
			o.seen[x] = true
			o.list = append(o.list, x)
		}
	}
}

// part is what one run of consecutive entries holds, read on one core.
type part struct {
	user, assistant, errors int
	calls                   []string
	files, models           []string
	end                     float64
}

// parallelMin is the entry count from which parts are read on every core.
const parallelMin = 4096

// readParts reads the entries in runs, on every core for long branches,
// and returns the runs in order.
func readParts(s *session.Session, indexes []int) []part {
	workers := runtime.GOMAXPROCS(0)
	if len(indexes) < parallelMin || workers < 2 {
		return []part{readPart(s, indexes)}
	}
	chunk := (len(indexes) + workers*4 - 1) / (workers * 4)
	parts := make([]part, (len(indexes)+chunk-1)/chunk)
	session.ForEachRange(len(indexes), chunk, func(w, lo, hi int) {
		parts[w] = readPart(s, indexes[lo:hi])
	})
	return parts
}

// readPart reads one run of entries.
func readPart(s *session.Session, indexes []int) part {
	p := part{end: math.Inf(-1)}
	files, models := newOrderedSet(), newOrderedSet()
	for _, i := range indexes {
		e := &s.Entries[i]
		ts := e.TimestampMs()
		if !math.IsNaN(ts) {
			p.end = math.Max(p.end, ts)
		}
		if e.Type != session.TypeMessage {
			continue
		}
		switch e.Role {
		case session.RoleUser:
			p.user++
		case session.RoleToolResult:
			if toolResultIsError(e.MessageRaw()) {
				p.errors++
			}
		case session.RoleAssistant:
			p.assistant++
			readAssistant(e, &p, files, models, ts)
		}
	}
	p.files, p.models = files.list, models.list
	return p
}

// readAssistant adds one assistant reply: its tool calls and the files
// they touch, its model, an error stop and its end time. The message is
// walked once (the last duplicate of a member wins, as in JSON.parse, for
// the scalar members; a repeated content adds its calls again, which Pi
// never writes).
func readAssistant(e *session.Entry, p *part, files, models *orderedSet, ts float64) {
	var provider, model string
	msg := e.MessageRaw()
	if len(msg) == 0 {
		return
	}
	rawjson.WalkObject(msg, 0, 0, func(k, b []byte, v, depth int) int {
		switch string(k) {
		case "content":
			if b[v] != '[' {
				return rawjson.Skip
			}
			return rawjson.WalkArray(b, v, depth, func(b []byte, block, depth int) int {
				if b[block] != '{' {
					return rawjson.Skip
				}
				var typ, name, args []byte
				end := rawjson.WalkObject(b, block, depth, func(k, b []byte, v, depth int) int {
					switch string(k) {
					case "type", "name", "arguments":
					default:
						return rawjson.Skip
					}
					end := rawjson.SkipAt(b, v, depth)
					if end < 0 {
						return end
					}
					switch string(k) {
					case "type":
						typ = b[v:end]
					case "name":
						name = b[v:end]
					default:
						args = b[v:end]
					}
					return end
				})
				if t, _ := rawjson.String(typ); end >= 0 && t == session.BlockToolCall {
					n, _ := rawjson.String(name)
					p.calls = append(p.calls, n)
					files.add(callPaths(n, args)...)
				}
				return end
			})
		case "stopReason", "provider", "model", "durationMs":
			end := rawjson.SkipAt(b, v, depth)
			if end < 0 {
				return end
			}
			val := b[v:end]
			switch string(k) {
			case "stopReason":
				if r, _ := rawjson.String(val); r == "error" {
					p.errors++
				}
			case "provider":
				provider, _ = rawjson.String(val)
			case "model":
				model, _ = rawjson.String(val)
			default:
				if d, ok := rawjson.Number(val); ok && d >= 0 && !math.IsNaN(ts) && !math.IsInf(d, 0) {
					p.end = math.Max(p.end, ts+d)
				}
			}
			return end
		}
		return rawjson.Skip
	})
	if provider != "" || model != "" {
		models.add(provider + "/" + model)
	}
}

// isErrorKey is the member a tool result's failure is recorded in.
const isErrorKey = `"isError":`

// toolResultIsError reads a tool result's isError. Pi writes it after the
// content, which can be megabytes: the last "isError": of the message is
// taken when the members after it run exactly to the message's end (so it
// is a member of the message itself, not of a nested object, and not the
// tail of an escaped quote); anything else is read from the start.
func toolResultIsError(msg []byte) bool {
	k := bytes.LastIndex(msg, []byte(isErrorKey))
	if k > 0 && msg[k-1] != '\\' {
		v := rawjson.SkipWS(msg, k+len(isErrorKey))
		end := rawjson.SkipAt(msg, v, 1)
		if end > 0 && membersRunToEnd(msg, end) {
			return string(msg[v:end]) == "true"
		}
	}
	return string(rawjson.Member(msg, "isError")) == "true"
}

// membersRunToEnd reports whether msg[i:] is zero or more ", key: value"
// members and then the closing brace that ends msg.
func membersRunToEnd(msg []byte, i int) bool {
	for {
		i = rawjson.SkipWS(msg, i)
		if i >= len(msg) {
			return false
		}
		switch msg[i] {
		case '}':
			return rawjson.SkipWS(msg, i+1) == len(msg)
		case ',':
		default:
			return false
		}
		i = rawjson.SkipWS(msg, i+1)
		if i >= len(msg) || msg[i] != '"' {
			return false
		}
		end := rawjson.SkipAt(msg, i, 1)
		if end < 0 {
			return false
		}
		i = rawjson.SkipWS(msg, end)
		if i >= len(msg) || msg[i] != ':' {
			return false
		}
		if i = rawjson.SkipAt(msg, rawjson.SkipWS(msg, i+1), 1); i < 0 {
			return false
		}
	}
}

// callPaths are the files one tool call touches: the path of Pi's edit and
// write tools, the plain paths a bash command writes.
func callPaths(name string, args []byte) []string {
	switch name {
	case "edit", "write", "multiedit", "multi_edit":
		for _, key := range []string{"path", "file_path", "filePath"} {
			if p, ok := rawjson.String(rawjson.Member(args, key)); ok && p != "" {
				return []string{p}
			}
		}
	case "bash":
		if c, ok := rawjson.String(rawjson.Member(args, "command")); ok {
			return BashPaths(c)
		}
	}
	return nil
}

// assistantText joins the text blocks of an assistant message (false when
// it has none with text).
func assistantText(msg []byte) (string, bool) {
	var texts []string
	rawjson.EachElement(rawjson.Member(msg, "content"), func(block []byte) bool {
		if typ, _ := rawjson.String(rawjson.Member(block, "type")); typ == session.BlockText {
			if t, ok := rawjson.String(rawjson.Member(block, "text")); ok && strings.TrimSpace(t) != "" {
				texts = append(texts, t)
			}
		}
		return true
	})
	return strings.Join(texts, "\n"), len(texts) > 0
}
