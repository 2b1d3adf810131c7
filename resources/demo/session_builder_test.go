package demo

// A deterministic writer of Pi v3 session files (spec pi-session-formats §1.3,
// §3, §4), used to generate the demo sessions.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// sessionBuilder appends entries the way Pi's SessionManager does: each new
// entry is a child of the current leaf and becomes the new leaf.
type sessionBuilder struct {
	seed    string
	id      string
	created time.Time
	clock   time.Time
	lines   []string
	used    map[string]bool
	leaf    any // nil or the id of the current leaf
	counter int
	// sideCounter numbers the ids of sideCustom entries.
	sideCounter int
	last        jsObject // the message of the latest message entry
	spent       tokens   // tokens of every assistant message written so far
}

// newSession starts a session file. parentSession is "" or the absolute path
// (with tokens) of the session file this one was spawned from.
func newSession(seed string, created time.Time, parentSession string) *sessionBuilder {
	s := &sessionBuilder{seed: seed, created: created, clock: created, used: map[string]bool{}}
	s.id = uuidV7(created, seed+"/session")
	s.lines = append(s.lines, jsStringify(obj(
		"type", "session",
		"version", 3,
		"id", s.id,
		"timestamp", isoTime(created),
		"cwd", TokenProjectDir,
		"parentSession", opt(parentSession != "", parentSession),
	)))
	return s
}

// fileName is `<timestamp>_<sessionId>.jsonl` with `:` and `.` replaced by `-`.
func (s *sessionBuilder) fileName() string {
	ts := strings.NewReplacer(":", "-", ".", "-").Replace(isoTime(s.created))
	return ts + "_" + s.id + ".jsonl"
}

// advance moves the session clock forward.
func (s *sessionBuilder) advance(ms int) {
	s.clock = s.clock.Add(time.Duration(ms) * time.Millisecond)
}

// nowMs is the clock in Unix milliseconds (the unit of message timestamps).
func (s *sessionBuilder) nowMs() int64 { return s.clock.UnixMilli() }

// newID returns a fresh 8-hex entry id, unique within the file.
func (s *sessionBuilder) newID() string {
	for {
		s.counter++
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s/entry/%d", s.seed, s.counter)))
		id := hex.EncodeToString(sum[:4])
		if !s.used[id] {
			s.used[id] = true
			return id
		}
	}
}

// entry appends {type, id, parentId, timestamp, ...fields} (Pi's order for
// most entry types) and returns the new id.
func (s *sessionBuilder) entry(typ string, fields ...any) string {
	s.advance(1)
	id := s.newID()
	head := obj("type", typ, "id", id, "parentId", s.leaf, "timestamp", isoTime(s.clock))
	s.lines = append(s.lines, jsStringify(append(head, obj(fields...)...)))
	s.leaf = id
	return id
}

// custom appends a `custom` entry (key order type, customType, data, id, …).
func (s *sessionBuilder) custom(customType string, data any) string {
	s.advance(1)
	id := s.newID()
	s.lines = append(s.lines, jsStringify(obj(
		"type", "custom", "customType", customType, "data", data,
		"id", id, "parentId", s.leaf, "timestamp", isoTime(s.clock),
	)))
	s.leaf = id
	return id
}

// sideCustom appends a `custom` entry whose id comes from a separate
// sequence and whose timestamp is the current clock, so the ids and times
// of every later entry stay as they were before the entry was added.
func (s *sessionBuilder) sideCustom(customType string, data any) string {
	var id string
	for {
		s.sideCounter++
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s/side/%d", s.seed, s.sideCounter)))
		if id = hex.EncodeToString(sum[:4]); !s.used[id] {
			s.used[id] = true
			break
		}
	}
	s.lines = append(s.lines, jsStringify(obj(
		"type", "custom", "customType", customType, "data", data,
		"id", id, "parentId", s.leaf, "timestamp", isoTime(s.clock),
	)))
	s.leaf = id
	return id
}

// customMessage appends a `custom_message` entry.
func (s *sessionBuilder) customMessage(customType string, content any, display bool, details any) string {
	s.advance(1)
	id := s.newID()
	s.lines = append(s.lines, jsStringify(obj(
		"type", "custom_message", "customType", customType, "content", content,
		"display", display, "details", details,
		"id", id, "parentId", s.leaf, "timestamp", isoTime(s.clock),
	)))
	s.leaf = id
	return id
}

// message appends a `message` entry.
func (s *sessionBuilder) message(msg jsObject) string {
	s.last = msg
	return s.entry("message", "message", msg)
}

// branchFrom moves the leaf (what `/tree` navigation does before a summary).
func (s *sessionBuilder) branchFrom(id string) { s.leaf = id }

// bytes renders the file: one JSON line per entry, each ending in "\n".
func (s *sessionBuilder) bytes() []byte {
	return []byte(strings.Join(s.lines, "\n") + "\n")
}

// Messages -----------------------------------------------------------------

// modelRef names a catalog model with its prices (USD per million tokens,
// pi-ai 1.6.0 catalog).
type modelRef struct {
	api, provider, id                    string
	input, output, cacheRead, cacheWrite float64
}

var (
	modelSonnet = modelRef{"anthropic-messages", "anthropic", "claude-sonnet-4-5", 3, 15, 0.3, 3.75}
	modelGPT54  = modelRef{"openai-responses", "openai", "gpt-5.4", 2.5, 15, 0.25, 0}
	modelHaiku  = modelRef{"anthropic-messages", "anthropic", "claude-haiku-4-5", 1, 5, 0.1, 1.25}
)

// tokens are the token counts of one usage record.
type tokens struct{ input, output, cacheRead, cacheWrite, reasoning int }

// usage computes a Usage object with pi-ai's calculateCost arithmetic.
func usage(m modelRef, t tokens) jsObject {
	ci := (m.input / 1_000_000) * float64(t.input)
	co := (m.output / 1_000_000) * float64(t.output)
	cr := (m.cacheRead / 1_000_000) * float64(t.cacheRead)
	cw := (m.cacheWrite * float64(t.cacheWrite)) / 1_000_000
	return obj(
		"input", t.input, "output", t.output, "cacheRead", t.cacheRead, "cacheWrite", t.cacheWrite,
		"totalTokens", t.input+t.output+t.cacheRead+t.cacheWrite,
		"cost", obj("input", ci, "output", co, "cacheRead", cr, "cacheWrite", cw, "total", ci+co+cr+cw),
		"reasoning", opt(t.reasoning > 0, t.reasoning),
	)
}

func text(t string) jsObject { return obj("type", "text", "text", t) }

func thinking(t, signature string) jsObject {
	return obj("type", "thinking", "thinking", t, "thinkingSignature", signature)
}

func toolCall(id, name string, args jsObject) jsObject {
	return obj("type", "toolCall", "id", id, "name", name, "arguments", args)
}

// userText appends a user message with plain string content.
func (s *sessionBuilder) userText(t string) string {
	s.advance(4000)
	return s.message(obj("role", "user", "content", t, "timestamp", s.nowMs()))
}

// assistantTurn describes one assistant response.
type assistantTurn struct {
	model        modelRef
	content      []any
	tokens       tokens
	stopReason   string
	thinking     string // thinkingLevel recorded on the message
	durationMs   int
	errorMessage string
	openAI       bool // add responseModel/providerThinkingLevel like the OpenAI Responses API
}

// assistant appends an assistant message; the message timestamp is the
// request start and the entry is written when the response ends.
func (s *sessionBuilder) assistant(a assistantTurn) string {
	s.advance(300)
	start := s.nowMs()
	s.advance(a.durationMs)
	s.spent.input += a.tokens.input
	s.spent.output += a.tokens.output
	s.spent.cacheRead += a.tokens.cacheRead
	s.spent.cacheWrite += a.tokens.cacheWrite
	s.spent.reasoning += a.tokens.reasoning
	responseModel, providerLevel := any(undef), any(undef)
	if a.openAI {
		responseModel, providerLevel = a.model.id+"-2026-03-05", a.thinking
	}
	return s.message(obj(
		"role", "assistant",
		"content", a.content,
		"api", a.model.api,
		"provider", a.model.provider,
		"model", a.model.id,
		"responseModel", responseModel,
		"responseId", "resp_"+s.newID()+s.newID(),
		"thinkingLevel", a.thinking,
		"providerThinkingLevel", providerLevel,
		"usage", usage(a.model, a.tokens),
		"stopReason", a.stopReason,
		"timestamp", start,
		"durationMs", a.durationMs,
		"errorMessage", opt(a.errorMessage != "", a.errorMessage),
	))
}

// toolResult appends the result of one tool call.
func (s *sessionBuilder) toolResult(callID, toolName, output string, details any, durationMs int) string {
	s.advance(durationMs)
	return s.message(obj(
		"role", "toolResult",
		"toolCallId", callID,
		"toolName", toolName,
		"content", []any{text(output)},
		"details", opt(details != nil, details),
		"isError", false,
		"timestamp", s.nowMs(),
		"durationMs", durationMs,
	))
}

// system appends a Pi ≥ 0.86 system message.
func (s *sessionBuilder) system(sections jsObject, added []any, removed []string) string {
	var removedObjs []any
	for _, name := range removed {
		removedObjs = append(removedObjs, obj("name", name))
	}
	return s.message(obj(
		"role", "system",
		"content", "",
		"sections", opt(len(sections) > 0, sections),
		"toolsAdded", opt(len(added) > 0, added),
		"toolsRemoved", opt(len(removed) > 0, removedObjs),
		"timestamp", s.nowMs()+1,
	))
}

// Ids and times ----------------------------------------------------------------

// isoTime is JavaScript's Date.prototype.toISOString.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// mustTime parses an ISO timestamp of the generator's own literals.
func mustTime(iso string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, iso)
	if err != nil {
		panic(err)
	}
	return t
}

func seedHex(seed string, n int) string {
	sum := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(sum[:])[:n]
}

// uuidV7 is a deterministic UUIDv7: 48 bits of Unix milliseconds, version 7,
// RFC 4122 variant, the rest derived from seed.
func uuidV7(t time.Time, seed string) string {
	ms := fmt.Sprintf("%012x", t.UnixMilli())
	r := seedHex(seed, 19)
	variant := "89ab"[int(r[3])%4]
	return ms[:8] + "-" + ms[8:] + "-7" + r[:3] + "-" + string(variant) + r[4:7] + "-" + r[7:19]
}

// uuidV4 is a deterministic random-looking UUIDv4 (crypto.randomUUID shape).
func uuidV4(seed string) string {
	r := seedHex(seed, 32)
	variant := "89ab"[int(r[16])%4]
	return r[:8] + "-" + r[8:12] + "-4" + r[13:16] + "-" + string(variant) + r[17:20] + "-" + r[20:32]
}
