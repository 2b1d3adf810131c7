// Package compile reproduces pi-forge's preset compiler: the system prompt
// (compileSystemPrompt), the synthetic and history messages (compileMessages),
// the built-in slots and the template environment handed to forge-v1. It is
// pure: every input, including the clock and the local time zone, is passed
// in by the caller.
package compile

import (
	"fmt"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
)

// ContextFile is one project instruction file (AGENTS.md, CLAUDE.md …) whose
// discovery and reading happened outside the engine.
type ContextFile struct {
	Path    string
	Content string
}

// Skill is one skill visible to the `skills` slot.
type Skill struct {
	Name        string
	Description string
	FilePath    string
	// BaseDir is optional (empty = not given); it is carried for fidelity but
	// no built-in slot prints it.
	BaseDir                string
	DisableModelInvocation bool
}

// Model identifies the active model. API is optional (empty = absent); a
// synthetic assistant message then reports "unknown".
type Model struct {
	Provider string
	ID       string
	API      string
}

// Options mirrors pi-forge's runtime snapshot options (PromptCompileOptions).
// Nil slices and maps stand for JavaScript `undefined`.
type Options struct {
	Cwd                string
	SelectedTools      []string
	ToolSnippets       map[string]string
	PromptGuidelines   []string
	AppendSystemPrompt *string
	ContextFiles       []ContextFile
	Skills             []Skill
}

// Runtime mirrors pi-forge's PromptRuntimeSnapshot. Now carries the local
// time zone through its Location: dates and times are rendered in it, while
// `populatedAt` and message timestamps use the instant itself.
type Runtime struct {
	Options           Options
	Model             *Model
	LatestUserMessage *string
	Now               time.Time
	// PiDocsRoot is the Pi package directory printed by the `pi-docs` slot;
	// "" prints pi-forge's unresolved fallback "@earendil-works/pi-coding-agent".
	PiDocsRoot string
	// CustomSlots are outputs the user supplies, for a preview, for custom
	// slots an extension module would render (forgebench does not run
	// modules; customslots.go): a custom slot named here renders its text
	// instead of the "Unsupported slot" warning. nil = none.
	CustomSlots map[string]string
}

// BuiltinTool is one of Pi's built-in tools with the prompt text it
// contributes (Pi 1.6.0, core/tools/*.ts).
type BuiltinTool struct {
	Name       string
	Snippet    string
	Guidelines []string
}

// BuiltinTools lists Pi 1.6.0's built-in tools in registry order.
var BuiltinTools = []BuiltinTool{
	{Name: "read", Snippet: "Read file contents", Guidelines: []string{"Use read to examine files instead of cat or sed."}},
	{Name: "bash", Snippet: "Execute bash commands (ls, grep, find, etc.)", Guidelines: []string{"You can inspect PI_* environment variables for current model and session details."}},
	{Name: "edit", Snippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call", Guidelines: []string{
		"Use edit for targeted changes. Batch changes to one file in a single call.",
		"Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.",
	}},
	{Name: "write", Snippet: "Create or overwrite files", Guidelines: []string{"Use write only for new files or complete rewrites."}},
	{Name: "grep", Snippet: "Search file contents for patterns (respects .gitignore)"},
	{Name: "find", Snippet: "Find files by glob pattern (respects .gitignore)"},
	{Name: "ls", Snippet: "List directory contents"},
}

// DefaultToolNames is Pi's default tool selection (DEFAULT_TOOL_NAMES).
var DefaultToolNames = []string{"read", "bash", "edit", "write"}

// DefaultRuntimeInput holds what DefaultRuntime cannot know by itself.
type DefaultRuntimeInput struct {
	Cwd          string
	ContextFiles []ContextFile
	// SelectedTools nil means DefaultToolNames.
	SelectedTools []string
	// AppendSystemPrompt nil means no APPEND_SYSTEM.md / SDK append.
	AppendSystemPrompt *string
	Skills             []Skill
	// ExtraGuidelines are extension prompt guidelines, added after the
	// selected tools' own guidelines.
	ExtraGuidelines   []string
	Model             *Model
	LatestUserMessage *string
	Now               time.Time
}

// DefaultRuntime builds the runtime snapshot pi-forge compiles against in
// a Pi 1.6.0 session with its default tool table, as pi-forge ≥ 0.5.5's
// tool prompt options make it (previewOptions, src/runtime/
// tool-policy-runtime.ts, used for the preview and for every request while
// a Preset is active): snippets of the built-in tools, the description of
// a selected tool that has no snippet (forge_capability), the guidelines of
// the selected tools in the registry's order (pi.getAllTools()), then the
// extra ones.
func DefaultRuntime(in DefaultRuntimeInput) Runtime {
	selected := in.SelectedTools
	if selected == nil {
		selected = append([]string(nil), DefaultToolNames...)
	}
	snippets := make(map[string]string, len(BuiltinTools)+1)
	for _, tool := range BuiltinTools {
		snippets[tool.Name] = tool.Snippet
	}
	if containsString(selected, ForgeCapabilityTool) {
		snippets[ForgeCapabilityTool] = capability.AgentToolDescription
	}
	var guidelines []string
	for _, tool := range BuiltinTools {
		if containsString(selected, tool.Name) {
			guidelines = append(guidelines, tool.Guidelines...)
		}
	}
	guidelines = append(guidelines, in.ExtraGuidelines...)
	if guidelines == nil {
		guidelines = []string{}
	}
	files := in.ContextFiles
	if files == nil {
		files = []ContextFile{}
	}
	skills := in.Skills
	if skills == nil {
		skills = []Skill{}
	}
	return Runtime{
		Options: Options{
			Cwd:                in.Cwd,
			SelectedTools:      selected,
			ToolSnippets:       snippets,
			PromptGuidelines:   guidelines,
			AppendSystemPrompt: in.AppendSystemPrompt,
			ContextFiles:       files,
			Skills:             skills,
		},
		Model:             in.Model,
		LatestUserMessage: in.LatestUserMessage,
		Now:               in.Now,
	}
}

// localDate formats the local calendar date like pi-forge's formatDate
// (getFullYear is not padded; month and day are).
func localDate(now time.Time) string {
	return fmt.Sprintf("%d-%02d-%02d", now.Year(), int(now.Month()), now.Day())
}

// localTime formats the local wall clock time as HH:MM:SS.
func localTime(now time.Time) string {
	return fmt.Sprintf("%02d:%02d:%02d", now.Hour(), now.Minute(), now.Second())
}

// isoString reproduces Date.prototype.toISOString: UTC, millisecond
// precision, a six-digit signed year outside 0000..9999.
func isoString(now time.Time) string {
	u := now.UTC()
	year := u.Year()
	var yearText string
	switch {
	case year >= 0 && year <= 9999:
		yearText = fmt.Sprintf("%04d", year)
	case year < 0:
		yearText = fmt.Sprintf("-%06d", -year)
	default:
		yearText = fmt.Sprintf("+%06d", year)
	}
	return fmt.Sprintf("%s-%02d-%02dT%02d:%02d:%02d.%03dZ", yearText, int(u.Month()), u.Day(),
		u.Hour(), u.Minute(), u.Second(), u.Nanosecond()/int(time.Millisecond))
}

// epochMillis is Date.prototype.getTime.
func epochMillis(now time.Time) float64 {
	return float64(now.UnixMilli())
}
