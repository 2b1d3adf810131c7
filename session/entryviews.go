package session

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The types in this file are typed views of entries and messages for UIs
// and statistics. They are decoded on demand (Entry.Payload,
// Entry.Message) and tolerate wrong field types (such fields stay zero).
// Exact re-serialisation goes through Entry.Value / Entry.Raw instead.

// Cost is a usage cost in USD (spec §4.2).
type Cost struct {
	Input             float64 `json:"input"`
	Output            float64 `json:"output"`
	CacheRead         float64 `json:"cacheRead"`
	CacheWrite        float64 `json:"cacheWrite"`
	Total             float64 `json:"total"`
	TotalFromProvider bool    `json:"totalFromProvider,omitempty"`
}

// Usage is token usage (spec §4.2); missing numbers are 0.
type Usage struct {
	Input        float64 `json:"input"`
	Output       float64 `json:"output"`
	CacheRead    float64 `json:"cacheRead"`
	CacheWrite   float64 `json:"cacheWrite"`
	CacheWrite1h float64 `json:"cacheWrite1h,omitempty"`
	Reasoning    float64 `json:"reasoning,omitempty"`
	TotalTokens  float64 `json:"totalTokens"`
	Cost         Cost    `json:"cost"`
}

// ContextTokens is Pi's calculateContextTokens.
func (u Usage) ContextTokens() float64 {
	if u.TotalTokens != 0 {
		return u.TotalTokens
	}
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

// Content block types (spec §4.1).
const (
	BlockText     = "text"
	BlockThinking = "thinking"
	BlockImage    = "image"
	BlockToolCall = "toolCall"
)

// ContentBlock is one text, thinking, image or toolCall block; Type says
// which fields apply. Unknown block types keep only Type and Raw.
type ContentBlock struct {
	Type              string          `json:"type"`
	Text              string          `json:"text,omitempty"`
	TextSignature     string          `json:"textSignature,omitempty"`
	Thinking          string          `json:"thinking,omitempty"`
	ThinkingSignature string          `json:"thinkingSignature,omitempty"`
	Redacted          bool            `json:"redacted,omitempty"`
	Data              string          `json:"data,omitempty"`
	MimeType          string          `json:"mimeType,omitempty"`
	ID                string          `json:"id,omitempty"`
	Name              string          `json:"name,omitempty"`
	Arguments         json.RawMessage `json:"arguments,omitempty"`
	ThoughtSignature  string          `json:"thoughtSignature,omitempty"`
	Namespace         string          `json:"namespace,omitempty"`
	ArgumentsError    string          `json:"argumentsError,omitempty"`
}

// Content is `string | ContentBlock[]`; null or absent gives neither.
type Content struct {
	// IsString is true when the content was a plain string (in Text).
	IsString bool
	Text     string
	Blocks   []ContentBlock
}

// UnmarshalJSON accepts a string, an array of blocks or null.
func (c *Content) UnmarshalJSON(b []byte) error {
	*c = Content{}
	switch {
	case len(b) > 0 && b[0] == '"':
		c.IsString = true
		return json.Unmarshal(b, &c.Text)
	case len(b) > 0 && b[0] == '[':
		return json.Unmarshal(b, &c.Blocks)
	}
	return nil
}

// PlainText joins the text blocks (or returns the string content).
func (c Content) PlainText(sep string) string {
	if c.IsString {
		return c.Text
	}
	out := ""
	first := true
	for _, b := range c.Blocks {
		if b.Type == BlockText {
			if !first {
				out += sep
			}
			out += b.Text
			first = false
		}
	}
	return out
}

// Tool is a tool declaration carried by a system message.
type Tool struct {
	Name                string          `json:"name"`
	Description         string          `json:"description"`
	Parameters          json.RawMessage `json:"parameters,omitempty"`
	ConstrainedSampling json.RawMessage `json:"constrainedSampling,omitempty"`
}

// NestedCall is one call recorded in toolResult.nestedCalls.
type NestedCall struct {
	ID             string          `json:"id"`
	Name           string          `json:"name"`
	Arguments      json.RawMessage `json:"arguments,omitempty"`
	ArgumentsBytes float64         `json:"argumentsBytes,omitempty"`
	Status         string          `json:"status"`
	DurationMs     float64         `json:"durationMs,omitempty"`
	Error          string          `json:"error,omitempty"`
}

// NestedCalls is toolResult.nestedCalls.
type NestedCalls struct {
	Calls    []NestedCall `json:"calls"`
	Complete bool         `json:"complete"`
}

// Deferred is assistant.deferred (a provider-side deferred response).
type Deferred struct {
	Provider    string          `json:"provider"`
	ModelID     string          `json:"modelId"`
	API         string          `json:"api"`
	ID          string          `json:"id"`
	ExpiresAt   json.RawMessage `json:"expiresAt,omitempty"`
	PollAfterMs float64         `json:"pollAfterMs,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
}

// Message is an agent message of any role (spec §4.3); Role says which
// fields apply. Timestamps are Unix milliseconds.
type Message struct {
	Role      string  `json:"role"`
	Content   Content `json:"content"`
	Timestamp float64 `json:"timestamp"`

	// system
	Sections     map[string]*string `json:"sections,omitempty"`
	ToolsAdded   []Tool             `json:"toolsAdded,omitempty"`
	ToolsRemoved []struct {
		Name string `json:"name"`
	} `json:"toolsRemoved,omitempty"`

	// assistant
	API                   string            `json:"api,omitempty"`
	Provider              string            `json:"provider,omitempty"`
	Model                 string            `json:"model,omitempty"`
	ResponseModel         string            `json:"responseModel,omitempty"`
	ResponseID            string            `json:"responseId,omitempty"`
	ProviderThinkingLevel string            `json:"providerThinkingLevel,omitempty"`
	ThinkingLevel         string            `json:"thinkingLevel,omitempty"`
	Diagnostics           []json.RawMessage `json:"diagnostics,omitempty"`
	Usage                 *Usage            `json:"usage,omitempty"`
	StopReason            string            `json:"stopReason,omitempty"`
	Deferred              *Deferred         `json:"deferred,omitempty"`
	ErrorMessage          string            `json:"errorMessage,omitempty"`
	RawStopReason         string            `json:"rawStopReason,omitempty"`
	EndTurn               bool              `json:"endTurn,omitempty"`
	DurationMs            float64           `json:"durationMs,omitempty"`

	// toolResult
	ToolCallID  string          `json:"toolCallId,omitempty"`
	ToolName    string          `json:"toolName,omitempty"`
	Details     json.RawMessage `json:"details,omitempty"`
	NestedCalls *NestedCalls    `json:"nestedCalls,omitempty"`
	IsError     bool            `json:"isError,omitempty"`

	// bashExecution
	Command            string   `json:"command,omitempty"`
	Output             string   `json:"output,omitempty"`
	ExitCode           *float64 `json:"exitCode,omitempty"`
	Cancelled          bool     `json:"cancelled,omitempty"`
	Truncated          bool     `json:"truncated,omitempty"`
	FullOutputPath     string   `json:"fullOutputPath,omitempty"`
	ExcludeFromContext bool     `json:"excludeFromContext,omitempty"`

	// custom (also details above)
	CustomType string `json:"customType,omitempty"`
	Display    bool   `json:"display,omitempty"`

	// branchSummary / compactionSummary
	Summary      string  `json:"summary,omitempty"`
	FromID       *string `json:"fromId,omitempty"`
	TokensBefore float64 `json:"tokensBefore,omitempty"`
}

// ToolCalls returns the toolCall blocks of an assistant message.
func (m *Message) ToolCalls() []ContentBlock {
	var out []ContentBlock
	for _, b := range m.Content.Blocks {
		if b.Type == BlockToolCall {
			out = append(out, b)
		}
	}
	return out
}

// ModelChange is a model_change entry.
type ModelChange struct {
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

// ThinkingLevelChange is a thinking_level_change entry.
type ThinkingLevelChange struct {
	ThinkingLevel string `json:"thinkingLevel"`
}

// UsageEntry is a usage entry (Pi ≥ 0.86).
type UsageEntry struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Usage    Usage  `json:"usage"`
	Note     string `json:"note,omitempty"`
}

// Compaction is a compaction entry. FirstKeptEntryID equal to the entry's
// own id means nothing before it is retained.
type Compaction struct {
	Summary          string          `json:"summary"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	TokensBefore     float64         `json:"tokensBefore"`
	Details          json.RawMessage `json:"details,omitempty"`
	Usage            *Usage          `json:"usage,omitempty"`
	FromHook         bool            `json:"fromHook,omitempty"`
	SystemMessage    *Message        `json:"systemMessage,omitempty"`
}

// BranchSummary is a branch_summary entry; FromID is "root" when the
// abandoned branch started before the first entry.
type BranchSummary struct {
	FromID   string          `json:"fromId"`
	Summary  string          `json:"summary"`
	Details  json.RawMessage `json:"details,omitempty"`
	Usage    *Usage          `json:"usage,omitempty"`
	FromHook bool            `json:"fromHook,omitempty"`
}

// Custom is a custom entry (extension state; never in the model context).
type Custom struct {
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// CustomMessage is a custom_message entry (enters the context as role custom).
type CustomMessage struct {
	CustomType string          `json:"customType"`
	Content    Content         `json:"content"`
	Display    bool            `json:"display"`
	Details    json.RawMessage `json:"details,omitempty"`
}

// ContextEdit is a context_edit entry; Replacement nil means the target's
// messages are removed from the context.
type ContextEdit struct {
	TargetID    string `json:"targetId"`
	Replacement *struct {
		Content Content `json:"content"`
	} `json:"replacement"`
}

// LabelChange is a label entry; an absent Label clears the target's label.
type LabelChange struct {
	TargetID string  `json:"targetId"`
	Label    *string `json:"label,omitempty"`
}

// SessionInfo is a session_info entry.
type SessionInfo struct {
	Name *string `json:"name,omitempty"`
}

// UnknownEntry is the payload of an entry whose type this package does not
// know; its bytes are in Entry.Raw.
type UnknownEntry struct {
	Type string
}

// Payload decodes the type-specific fields of the entry: *ModelChange,
// *ThinkingLevelChange, *UsageEntry, *Compaction, *BranchSummary, *Custom,
// *CustomMessage, *ContextEdit, *LabelChange, *SessionInfo, *Message (for
// message entries) or *UnknownEntry.
func (e *Entry) Payload() (any, error) {
	var target any
	switch e.Type {
	case TypeMessage:
		return e.Message()
	case TypeModelChange:
		target = &ModelChange{}
	case TypeThinkingLevelChange:
		target = &ThinkingLevelChange{}
	case TypeUsage:
		target = &UsageEntry{}
	case TypeCompaction:
		c := &Compaction{}
		if err := lenientUnmarshal(e.Raw, c); err != nil {
			return nil, fmt.Errorf("decode entry on line %d: %w", e.Line, err)
		}
		if id, ok := e.FirstKeptEntryID(); ok || e.firstKeptUndefined {
			c.FirstKeptEntryID = id
		}
		return c, nil
	case TypeBranchSummary:
		target = &BranchSummary{}
	case TypeCustom:
		target = &Custom{}
	case TypeCustomMessage:
		target = &CustomMessage{}
	case TypeContextEdit:
		target = &ContextEdit{}
	case TypeLabel:
		target = &LabelChange{}
	case TypeSessionInfo:
		target = &SessionInfo{}
	default:
		return &UnknownEntry{Type: e.Type}, nil
	}
	if err := lenientUnmarshal(e.Raw, target); err != nil {
		return nil, fmt.Errorf("decode entry on line %d: %w", e.Line, err)
	}
	return target, nil
}

// Message decodes the message of a message entry (role after migration).
func (e *Entry) Message() (*Message, error) {
	if e.Type != TypeMessage || e.MessageRaw().Nullish() {
		return nil, fmt.Errorf("entry on line %d has no message", e.Line)
	}
	m := &Message{}
	if err := lenientUnmarshal(e.MessageRaw(), m); err != nil {
		return nil, fmt.Errorf("decode message on line %d: %w", e.Line, err)
	}
	m.Role = e.Role
	return m, nil
}

// lenientUnmarshal decodes JSON, ignoring fields of an unexpected type.
func lenientUnmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return nil
	}
	return err
}
