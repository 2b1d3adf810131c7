package subagent

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
)

// FileSummary is what one agent session file says about the agent's own
// work, read from a digest. Entries before the pi-subagent/descriptor entry
// are the copied parent history (fork_turns "all", §20.2) and are counted
// apart, never in the agent's own numbers.
type FileSummary struct {
	Path    string
	Size    int64
	ModTime time.Time
	// SessionID and ParentSession come from the header.
	SessionID     string
	ParentSession string
	// DescriptorIndex is the entry index of the first descriptor entry
	// (-1 when the file has none: then every entry is counted as own).
	DescriptorIndex int
	// InheritedEntries is the number of copied parent entries.
	InheritedEntries int
	// Stats count the agent's own entries (every branch, like Pi's
	// /session), with catalog cost repair.
	Stats stats.Stats
	// UsageRecords is how many own entries carry a usage.
	UsageRecords int
	// NestedToolCalls counts toolResult.nestedCalls of own entries.
	NestedToolCalls int
	// Runs are the execution intervals found in the session (§24): each
	// starts at a user message and ends at the last message before the
	// next one.
	Runs []Interval
	// LastResponse is the model of the most recent successful assistant
	// response (nil when none); LastResponseAt its entry time (ms).
	LastResponse   *Selection
	LastResponseAt float64
	// ContextTokens is the input of the last successful request (input +
	// cacheRead + cacheWrite); ContextKnown is false when there is none
	// or a compaction came after it.
	ContextTokens float64
	ContextKnown  bool
	// Task is the text of the latest task delivered to the agent ("" when
	// none was found).
	Task string
	// LastActivityMs is the timestamp of the last entry (NaN when none).
	LastActivityMs float64
	// Skipped counts lines the reader skipped (malformed, blank, oversized).
	Skipped int
}

// Interval is one run, in Unix milliseconds (End is NaN while unknown).
type Interval struct {
	Start, End float64
}

// Duration is End - Start in milliseconds (0 when either is unknown).
func (iv Interval) Duration() float64 {
	d := iv.End - iv.Start
	if math.IsNaN(d) || d < 0 {
		return 0
	}
	return d
}

// runPrompt is the fixed user prompt that starts every v5 run (§20.2).
const runPrompt = "Process the assigned agent tasks and messages below."

// summarize reads a digest into a FileSummary. It re-reads a few lines
// (the latest task envelope) from the file.
func summarize(d *stats.Digest, cat *catalog.Catalog) *FileSummary {
	fs := &FileSummary{
		Path: d.Path, Size: d.Size, ModTime: d.ModTime,
		SessionID: d.Header.ID, ParentSession: d.Header.ParentSession,
		DescriptorIndex: -1, LastActivityMs: math.NaN(), LastResponseAt: math.NaN(),
		Skipped: d.Diagnostics.SkippedLines(),
	}
	for i := range d.Entries {
		if e := &d.Entries[i]; e.Type == session.TypeCustom && e.CustomType == DescriptorCustomType {
			fs.DescriptorIndex = i
			break
		}
	}
	first := fs.DescriptorIndex + 1
	fs.InheritedEntries = max(fs.DescriptorIndex, 0)
	fs.Stats = d.Stats(first, cat)
	var run *Interval
	compactedAfterResponse := false
	for i := first; i < len(d.Entries); i++ {
		e := &d.Entries[i]
		if _, ok := e.Usage(); ok {
			fs.UsageRecords++
		}
		fs.NestedToolCalls += e.NestedCalls
		if !math.IsNaN(e.TimestampMs) {
			fs.LastActivityMs = e.TimestampMs
		}
		isMessage := e.Type == session.TypeMessage || e.Type == session.TypeCustomMessage
		// A run starts at its prompt; the system message before it belongs
		// to the run it sets up.
		if isMessage && (e.Role == session.RoleUser || run == nil && e.Role != session.RoleSystem) {
			fs.Runs = append(fs.Runs, Interval{Start: e.TimestampMs, End: e.TimestampMs})
			run = &fs.Runs[len(fs.Runs)-1]
		}
		if isMessage && run != nil && !math.IsNaN(e.TimestampMs) && (math.IsNaN(run.End) || e.TimestampMs > run.End) {
			run.End = e.TimestampMs
		}
		switch {
		case e.Type == session.TypeCompaction:
			compactedAfterResponse = true
		case e.Role == session.RoleAssistant && e.StopReason != "error" && e.StopReason != "aborted":
			model := e.Model
			if e.ResponseModel != "" {
				model = e.ResponseModel
			}
			fs.LastResponse = &Selection{Model: ModelRef{Provider: e.Provider, ID: model}, Thinking: e.ThinkingLevel}
			fs.LastResponseAt = e.TimestampMs
			if u, ok := e.Usage(); ok {
				fs.ContextTokens = u.Input + u.CacheRead + u.CacheWrite
				fs.ContextKnown = true
				compactedAfterResponse = false
			}
		}
	}
	if compactedAfterResponse {
		fs.ContextKnown = false
	}
	fs.Task = latestTask(d, first)
	return fs
}

// RuntimeMs sums the run intervals.
func (fs *FileSummary) RuntimeMs() float64 {
	total := 0.0
	for _, r := range fs.Runs {
		total += r.Duration()
	}
	return total
}

// envelopeHeader matches one message header of a message-v2 envelope:
// "[Agent <kind>: <from> → <to>]" on its own line (§20.1).
var envelopeHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\[Agent (message|task|completion): (\S+) → (\S+)\]$`)
})

// EnvelopeMessage is one message of a pi-subagent/message-v2 delivery.
type EnvelopeMessage struct {
	Kind, From, To, Text string
}

// ParseEnvelope splits the content of a message-v2 delivery into its
// messages (joined with "\n\n", each "[Agent <kind>: <from> → <to>]\n<text>").
// Text before the first header is dropped.
func ParseEnvelope(content string) []EnvelopeMessage {
	locs := envelopeHeader().FindAllStringSubmatchIndex(content, -1)
	out := make([]EnvelopeMessage, 0, len(locs))
	for k, loc := range locs {
		end := len(content)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		text := content[min(loc[1]+1, end):end]
		if k+1 < len(locs) {
			text = strings.TrimSuffix(text, "\n\n")
		}
		out = append(out, EnvelopeMessage{
			Kind: content[loc[2]:loc[3]], From: content[loc[4]:loc[5]], To: content[loc[6]:loc[7]], Text: text,
		})
	}
	return out
}

// latestTask finds the text of the last task delivered in the own part:
// the newest message-v2 envelope holding a task, else the newest user
// message that is not the fixed run prompt (0.3.0 children and hand-made
// sessions).
func latestTask(d *stats.Digest, first int) string {
	fallback := -1
	for i := len(d.Entries) - 1; i >= first; i-- {
		e := &d.Entries[i]
		switch {
		case e.CustomType == MessageCustomType && (e.Type == session.TypeCustomMessage || e.Role == session.RoleCustom):
			entry, err := d.ReadEntry(i)
			if err != nil {
				continue
			}
			msgs := ParseEnvelope(entryText(entry))
			for k := len(msgs) - 1; k >= 0; k-- {
				if msgs[k].Kind == KindTask {
					return msgs[k].Text
				}
			}
		case e.Role == session.RoleUser && fallback < 0:
			fallback = i
		}
	}
	if fallback >= 0 {
		if entry, err := d.ReadEntry(fallback); err == nil {
			if text := entryText(entry); strings.TrimSpace(text) != runPrompt {
				return text
			}
		}
	}
	return ""
}

// entryText is the plain text of a message or custom_message entry.
func entryText(e *session.Entry) string {
	p, err := e.Payload()
	if err != nil {
		return ""
	}
	switch m := p.(type) {
	case *session.Message:
		return m.Content.PlainText("\n")
	case *session.CustomMessage:
		return m.Content.PlainText("\n")
	}
	return ""
}

// spawnMessages maps task names to the message of the spawn_agent calls in
// a session (the last call for a name wins).
func spawnMessages(file string) map[string]string {
	d, err := stats.ReadDigest(file, stats.DigestOptions{})
	if err != nil {
		return map[string]string{}
	}
	return spawnTasksOf(d)
}

// spawnTasksOf is spawnMessages over a digest already read.
func spawnTasksOf(d *stats.Digest) map[string]string {
	out := map[string]string{}
	for i := range d.Entries {
		e := &d.Entries[i]
		if e.Role != session.RoleAssistant || e.ToolCalls() == 0 {
			continue
		}
		entry, err := d.ReadEntry(i)
		if err != nil {
			continue
		}
		m, err := entry.Message()
		if err != nil {
			continue
		}
		for _, call := range m.ToolCalls() {
			if call.Name != "spawn_agent" {
				continue
			}
			var args struct {
				TaskName string `json:"task_name"`
				Message  string `json:"message"`
			}
			if json.Unmarshal(call.Arguments, &args) == nil && args.TaskName != "" {
				out[args.TaskName] = args.Message
			}
		}
	}
	return out
}
