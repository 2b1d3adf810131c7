// Package sessiongen writes deterministic, realistic Pi v3 session files of any
// size for benchmarks and tests: long tool results, thinking blocks,
// compactions, branches with summaries, labels, custom entries, model and
// thinking-level changes, context edits and usage entries.
package sessiongen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"
	"unicode/utf8"
)

// Config controls the generated session.
type Config struct {
	// TargetBytes is the approximate file size to stop at.
	TargetBytes int64
	// Seed makes the output reproducible.
	Seed uint64
	// Shape picks the entry mix (default FewLarge).
	Shape Shape
	// ID and Cwd are the header's session id and working directory
	// (defaults: a fixed id and /home/dev/projects/bench).
	ID, Cwd string
	// Start is the header's timestamp (default 2026-11-01 09:00 UTC).
	Start time.Time
}

// Shape is the size profile of the generated entries.
type Shape int

const (
	// FewLarge writes turns with multi-KB tool output (about 21k entries
	// per 100 MB).
	FewLarge Shape = iota
	// ManySmall writes short turns with small tool output (about 150k
	// entries per 100 MB).
	ManySmall
)

// ParseShape reads a shape name ("few-large" or "many-small").
func ParseShape(name string) (Shape, error) {
	switch name {
	case "few-large":
		return FewLarge, nil
	case "many-small":
		return ManySmall, nil
	}
	return 0, fmt.Errorf("unknown session shape %q (want few-large or many-small)", name)
}

// Stats describes what was written.
type Stats struct {
	Bytes       int64
	Entries     int
	Compactions int
	Branches    int
	LastID      string
	// MidID is the id of the entry written when half the target size was
	// reached (an entry half-way through the file).
	MidID string
}

var words = []string{"parser", "session", "branch", "tree", "compaction", "token", "model", "context",
	"value", "error", "return", "function", "test", "file", "line", "index", "buffer", "stream", "json",
	"the", "a", "of", "to", "and", "in", "is", "for", "with", "on", "that", "héllo", "naïve", "日本", "✓"}

type writer struct {
	shape  Shape
	w      *bufio.Writer
	rng    *rand.Rand
	n      int64
	err    error
	clock  time.Time
	ids    map[string]bool
	path   []string // ids on the current branch, root first
	stats  Stats
	buf    []byte
	toolID int
}

// Write generates a session into w.
func Write(w io.Writer, cfg Config) (Stats, error) {
	if cfg.ID == "" {
		cfg.ID = "01a2297e-0000-7000-8000-00000000bench"
	}
	if cfg.Cwd == "" {
		cfg.Cwd = "/home/dev/projects/bench"
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	}
	g := &writer{
		shape: cfg.Shape,
		w:     bufio.NewWriterSize(w, 1<<20),
		rng:   rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		clock: cfg.Start,
		ids:   map[string]bool{},
	}
	g.line(`{"type":"session","version":3,"id":` + g.quote(cfg.ID) + `,"timestamp":"` + g.ts() +
		`","cwd":` + g.quote(cfg.Cwd) + `}`)
	g.entry("model_change", `"provider":"anthropic","modelId":"claude-sonnet-4-5"`)
	g.entry("thinking_level_change", `"thinkingLevel":"medium"`)
	g.message(`{"role":"system","content":"","sections":{"preamble":` + g.quote(g.sentence(40)) + `},"timestamp":` + g.ms() + `}`)
	for turn := 0; g.err == nil && g.n < cfg.TargetBytes; turn++ {
		if g.stats.MidID == "" && g.n >= cfg.TargetBytes/2 && len(g.path) > 0 {
			g.stats.MidID = g.path[len(g.path)-1]
		}
		g.turn()
		switch {
		case turn%40 == 39:
			g.compaction()
		case turn%25 == 24:
			g.branch()
		case turn%17 == 16:
			g.extras()
		}
	}
	if err := g.w.Flush(); err != nil && g.err == nil {
		g.err = err
	}
	g.stats.Bytes = g.n
	if len(g.path) > 0 {
		g.stats.LastID = g.path[len(g.path)-1]
	}
	if g.err != nil {
		return g.stats, fmt.Errorf("generate session: %w", g.err)
	}
	return g.stats, nil
}

func (g *writer) turn() {
	small := g.shape == ManySmall
	userWords, thinkWords := 10+g.rng.IntN(60), 30+g.rng.IntN(300)
	if small {
		userWords, thinkWords = 4+g.rng.IntN(12), 3+g.rng.IntN(25)
	}
	g.message(`{"role":"user","content":` + g.quote(g.sentence(userWords)) + `,"timestamp":` + g.ms() + `}`)
	calls := 1 + g.rng.IntN(3)
	var ids []string
	content := `[{"type":"thinking","thinking":` + g.quote(g.sentence(thinkWords)) +
		`,"thinkingSignature":"sig-` + strconv.Itoa(g.rng.IntN(1e9)) + `"},{"type":"text","text":` + g.quote(g.sentence(20)) + `}`
	for c := 0; c < calls; c++ {
		g.toolID++
		id := "toolu_" + strconv.Itoa(g.toolID)
		ids = append(ids, id)
		content += `,{"type":"toolCall","id":"` + id + `","name":"read","arguments":{"path":"src/file` + strconv.Itoa(g.rng.IntN(500)) + `.ts"}}`
	}
	content += "]"
	g.assistant(content, "toolUse")
	for _, id := range ids {
		size := 500 + g.rng.IntN(6000)
		if g.rng.IntN(10) == 0 {
			size = 20000 + g.rng.IntN(60000)
		}
		if small {
			size = 40 + g.rng.IntN(400)
			if g.rng.IntN(50) == 0 {
				size = 2000 + g.rng.IntN(2000)
			}
		}
		g.message(`{"role":"toolResult","toolCallId":"` + id + `","toolName":"read","content":[{"type":"text","text":` +
			g.quote(g.code(size)) + `}],"isError":false,"timestamp":` + g.ms() + `}`)
	}
	finalWords := 40 + g.rng.IntN(200)
	if small {
		finalWords = 5 + g.rng.IntN(30)
	}
	g.assistant(`[{"type":"text","text":`+g.quote(g.sentence(finalWords))+`}]`, "stop")
}

func (g *writer) assistant(content, stop string) {
	in, out := 1000+g.rng.IntN(5000), 50+g.rng.IntN(800)
	g.message(`{"role":"assistant","content":` + content + `,"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":` +
		strconv.Itoa(in) + `,"output":` + strconv.Itoa(out) + `,"cacheRead":` + strconv.Itoa(g.rng.IntN(50000)) +
		`,"cacheWrite":0,"totalTokens":` + strconv.Itoa(in+out) + `,"cost":{"input":0.003,"output":0.015,"cacheRead":0.001,"cacheWrite":0,"total":0.019}},"stopReason":"` +
		stop + `","timestamp":` + g.ms() + `}`)
}

func (g *writer) compaction() {
	keep := g.path[max(0, len(g.path)-12)]
	g.stats.Compactions++
	g.entry("compaction", `"summary":`+g.quote("## Goal\n"+g.sentence(120))+`,"firstKeptEntryId":"`+keep+
		`","tokensBefore":`+strconv.Itoa(100000+g.rng.IntN(50000))+`,"details":{"readFiles":["src/a.ts"],"modifiedFiles":[]}`)
}

func (g *writer) branch() {
	from := g.path[len(g.path)-1]
	back := len(g.path) - 1 - (3 + g.rng.IntN(8))
	if back < 1 {
		return
	}
	g.path = g.path[:back+1]
	g.stats.Branches++
	g.entry("branch_summary", `"fromId":"`+from+`","summary":`+g.quote(g.sentence(60)))
}

func (g *writer) extras() {
	target := g.path[g.rng.IntN(len(g.path))]
	g.entry("label", `"targetId":"`+target+`","label":"mark-`+strconv.Itoa(g.rng.IntN(100))+`"`)
	g.entryFirst("custom", `"customType":"bench/state","data":{"n":`+strconv.Itoa(g.rng.IntN(1000))+`}`)
	g.entryFirst("custom_message", `"customType":"bench/notice","content":`+g.quote(g.sentence(15))+`,"display":true`)
	g.message(`{"role":"bashExecution","command":"npm test","output":` + g.quote(g.code(800)) + `,"exitCode":1,"cancelled":false,"truncated":false,"timestamp":` + g.ms() + `}`)
	g.entry("usage", `"kind":"cache_warm","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":0,"output":0,"cacheRead":5000,"cacheWrite":0,"totalTokens":5000,"cost":{"input":0,"output":0,"cacheRead":0.0015,"cacheWrite":0,"total":0.0015}}`)
	g.entry("context_edit", `"targetId":"`+g.path[len(g.path)-3]+`","replacement":{"content":[{"type":"text","text":"[omitted]"}]}`)
	g.entry("session_info", `"name":"Bench session `+strconv.Itoa(g.rng.IntN(10))+`"`)
	g.entry("thinking_level_change", `"thinkingLevel":"high"`)
}

func (g *writer) message(msg string) { g.entry("message", `"message":`+msg) }

// entry writes type, id, parentId, timestamp, then the fields.
func (g *writer) entry(typ, fields string) {
	id, parent := g.nextID()
	g.line(`{"type":"` + typ + `","id":"` + id + `","parentId":` + parent + `,"timestamp":"` + g.ts() + `",` + fields + `}`)
}

// entryFirst writes the fields before id/parentId/timestamp, as Pi does for
// custom and custom_message entries.
func (g *writer) entryFirst(typ, fields string) {
	id, parent := g.nextID()
	g.line(`{"type":"` + typ + `",` + fields + `,"id":"` + id + `","parentId":` + parent + `,"timestamp":"` + g.ts() + `"}`)
}

func (g *writer) nextID() (id, parent string) {
	parent = "null"
	if len(g.path) > 0 {
		parent = `"` + g.path[len(g.path)-1] + `"`
	}
	for {
		id = fmt.Sprintf("%08x", g.rng.Uint32())
		if !g.ids[id] {
			break
		}
	}
	g.ids[id] = true
	g.path = append(g.path, id)
	g.stats.Entries++
	return id, parent
}

func (g *writer) line(s string) {
	if g.err != nil {
		return
	}
	n, err := g.w.WriteString(s)
	g.n += int64(n)
	if err == nil {
		err = g.w.WriteByte('\n')
		g.n++
	}
	g.err = err
}

func (g *writer) ts() string {
	g.clock = g.clock.Add(time.Duration(200+g.rng.IntN(5000)) * time.Millisecond)
	return g.clock.Format("2006-01-02T15:04:05.000Z")
}

func (g *writer) ms() string { return strconv.FormatInt(g.clock.UnixMilli(), 10) }

func (g *writer) sentence(n int) string {
	g.buf = g.buf[:0]
	for i := 0; i < n; i++ {
		if i > 0 {
			g.buf = append(g.buf, ' ')
		}
		g.buf = append(g.buf, words[g.rng.IntN(len(words))]...)
	}
	return string(g.buf) + "."
}

func (g *writer) code(size int) string {
	g.buf = g.buf[:0]
	for ln := 1; len(g.buf) < size; ln++ {
		g.buf = append(g.buf, "  const v"...)
		g.buf = strconv.AppendInt(g.buf, int64(ln), 10)
		g.buf = append(g.buf, " = parse(\""...)
		g.buf = append(g.buf, words[g.rng.IntN(len(words))]...)
		g.buf = append(g.buf, "\", {depth: "...)
		g.buf = strconv.AppendInt(g.buf, int64(g.rng.IntN(100)), 10)
		g.buf = append(g.buf, "});\t// "...)
		g.buf = append(g.buf, words[g.rng.IntN(len(words))]...)
		g.buf = append(g.buf, '\n')
	}
	return string(g.buf)
}

// quote renders s as a JSON string the way JSON.stringify does.
func (g *writer) quote(s string) string {
	out := make([]byte, 0, len(s)+16)
	out = append(out, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		switch c {
		case '"':
			out = append(out, `\"`...)
		case '\\':
			out = append(out, `\\`...)
		case '\n':
			out = append(out, `\n`...)
		case '\t':
			out = append(out, `\t`...)
		case '\r':
			out = append(out, `\r`...)
		default:
			if c < 0x20 {
				out = append(out, fmt.Sprintf(`\u%04x`, c)...)
			} else {
				_, size := utf8.DecodeRuneInString(s[i:])
				out = append(out, s[i:i+size]...)
				i += size
				continue
			}
		}
		i++
	}
	return string(append(out, '"'))
}
