// Package preset implements pi-forge Presets (prompt stacks): the normalized
// schema, the codec (parse, normalize, validate, serialize), the tool and skill
// policy, the regex transforms and the shared resource-id helpers.
//
// Everything here is pure: no file, network, environment or clock access.
// Formats and messages follow spec/pi-forge-formats.md §1, §2, §5, §6, §7, §9.4.
package preset

import "github.com/forgebench/forgebench/engine/jsonv"

// StackType is the only accepted value of a Preset's "type" field.
const StackType = "pi-forge.prompt-stack"

// Level is a diagnostic severity.
type Level string

// Diagnostic levels. A Preset with any LevelError diagnostic is not usable.
const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelInfo    Level = "info"
)

// Diagnostic is one Preset diagnostic ({level, message, itemId?}).
type Diagnostic struct {
	Level   Level
	Message string
	// ItemID is the id of the item the message is about; "" means absent.
	ItemID string
}

// Diagnostics is an ordered list of Preset diagnostics.
type Diagnostics []Diagnostic

// Scope is a resource scope: "project" or "global".
type Scope string

// Resource scopes.
const (
	ScopeProject Scope = "project"
	ScopeGlobal  Scope = "global"
)

// Mode says how the compiled system prompt combines with Pi's base prompt.
type Mode string

// Preset modes. ModeUnset (absent) behaves like ModeReplace in the compiler.
const (
	ModeUnset   Mode = ""
	ModeReplace Mode = "replace"
	ModeAppend  Mode = "append"
	ModePrepend Mode = "prepend"
)

// Role is an item role. RoleNone ("") means the item has no (valid) role.
type Role string

// Item roles.
const (
	RoleNone      Role = ""
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleCustom    Role = "custom"
)

// ItemKind is "block" or "slot".
type ItemKind string

// Item kinds.
const (
	KindBlock ItemKind = "block"
	KindSlot  ItemKind = "slot"
)

// Stack is a normalized Preset (pi-forge PromptStack). Optional fields use
// nil (pointers, slices, objects) or the zero value documented on the field to
// mean "absent" (JavaScript undefined), so Serialize reproduces pi-forge's
// normalized JSON exactly.
//
// Pass-through objects (Defaults, Context, Regex, Import, item Source and
// Options, and the capability bindings) keep the raw JSON value in source
// order, exactly like pi-forge; typed views are available as methods.
type Stack struct {
	// SchemaVersion is 1 or 2.
	SchemaVersion int
	// Type is StackType or "" (absent).
	Type string
	// ID is the resource id (falls back to the file basename without ".json").
	ID string
	// Name is the display name; nil = absent.
	Name *string
	// Description; nil = absent.
	Description *string
	// AutoActivate; nil = absent.
	AutoActivate *bool
	// Mode; ModeUnset = absent.
	Mode Mode
	// Defaults is the raw "defaults" object ({syntheticMessagesVisible?,
	// unresolvedMacroPolicy?}); nil = absent. See DefaultsView.
	Defaults *jsonv.Object
	// Context is the raw "context" object ({allowDuplicateChatHistory?,
	// mergeConsecutiveRoles?, mergeSeparator?}); nil = absent. See ContextView.
	Context *jsonv.Object
	// Tools is the normalized tool policy (allow | deny, plus initial); nil = absent.
	Tools *ResourcePolicy
	// Skills is the normalized skill policy (allow | deny; never initial); nil = absent.
	Skills *ResourcePolicy
	// Variables (schemaVersion 1 only): name → string, JS key order; nil = absent.
	Variables *jsonv.Object
	// Parameters (schemaVersion 2 only): name → JSON value, JS key order; nil = absent.
	Parameters *jsonv.Object
	// Regex is the raw "regex" object ({schemaVersion?, rules?}); nil = absent.
	// See RegexRules for a typed view.
	Regex *jsonv.Object
	// Capabilities is the normalized raw bindings array (each element a
	// *jsonv.Object copy of the source binding, or the raw non-object value);
	// nil = absent. See CapabilityBindings for a typed view.
	Capabilities []any
	// Items are the ordered prompt items (never nil after Parse).
	Items []Item
	// Import is the raw SillyTavern import metadata; nil = absent.
	Import *jsonv.Object
}

// Item is a normalized prompt-stack item: a block (Kind == KindBlock, uses
// Content) or a slot (Kind == KindSlot, uses Slot and Options).
type Item struct {
	Kind ItemKind
	// ID is the trimmed item id (or "item-<n>" fallback).
	ID string
	// Name; nil = absent.
	Name *string
	// Enabled; nil = absent (which means enabled). Use IsEnabled.
	Enabled *bool
	// Role; RoleNone = absent.
	Role Role
	// Tags: nil = absent, non-nil (possibly empty) = present.
	Tags []string
	// Source is raw provenance metadata; nil = absent.
	Source *jsonv.Object
	// Content is the block's forge-v1 template text (blocks only).
	Content string
	// Slot is the slot name (slots only; may be "").
	Slot string
	// Options is the raw slot options object (slots only); nil = absent.
	Options *jsonv.Object
}

// ResourcePolicy is a normalized tool or skill policy. Normalization keeps at
// most one of Allow / Deny (both nil when neither is given).
type ResourcePolicy struct {
	// Allow patterns (trimmed, non-empty); nil = absent. Never empty when non-nil.
	Allow []string
	// Deny patterns (trimmed, non-empty); nil = absent. Never empty when non-nil.
	Deny []string
	// Initial (tools only) concrete default tool names, trimmed and
	// de-duplicated: nil = absent (legacy behaviour), non-nil empty = [] (zero
	// default tools).
	Initial []string
}

// Defaults is the typed view of Stack.Defaults.
type Defaults struct {
	// SyntheticMessagesVisible is the display flag of synthetic custom messages (default false).
	SyntheticMessagesVisible bool
	// UnresolvedMacroPolicy is validated but ignored by the compiler; "" = absent.
	UnresolvedMacroPolicy string
}

// ContextOptions is the typed view of Stack.Context.
type ContextOptions struct {
	// AllowDuplicateChatHistory expands every enabled chat-history slot.
	AllowDuplicateChatHistory bool
	// MergeConsecutiveRoles merges adjacent same-role stack-item messages.
	MergeConsecutiveRoles bool
	// MergeSeparator joins merged texts (default "\n\n").
	MergeSeparator string
}

// RegexStage is a regex rule stage.
type RegexStage string

// Regex stages.
const (
	StageHistory  RegexStage = "history"
	StageCompiled RegexStage = "compiled"
)

// RegexEffect is a regex rule effect.
type RegexEffect string

// Regex effects.
const (
	EffectOutgoing RegexEffect = "outgoing"
	EffectFinalize RegexEffect = "finalize"
)

// RegexFrequency is a regex rule frequency.
type RegexFrequency string

// Regex frequencies.
const (
	FrequencyTurn    RegexFrequency = "turn"
	FrequencyRequest RegexFrequency = "request"
)

// RegexTarget is what a compiled-stage rule applies to.
type RegexTarget string

// Regex targets.
const (
	TargetSystem   RegexTarget = "system"
	TargetMessages RegexTarget = "messages"
)

// CapabilityBinding is the typed view of one Preset capability binding
// (§9.4). Only object bindings appear in this view.
type CapabilityBinding struct {
	// Ref is the capability selector as written ("project:x", "global:x" or "x").
	Ref string
	// ID is the binding id as written ("" = absent); see EffectiveID.
	ID string
	// ModelCallable lets the agent enable the binding (default false).
	ModelCallable bool
	// Overrides; nil = absent.
	Overrides *BindingOverrides
}

// BindingOverrides are the per-binding capability overrides.
type BindingOverrides struct {
	// Content replaces the capability content; nil = absent.
	Content *string
	// AppendContent is appended to the capability content; nil = absent.
	AppendContent *string
	// ToolsAdd replaces the capability tools.add list; nil = absent (inherited).
	ToolsAdd []string
	// ToolsRemove replaces the capability tools.remove list; nil = absent (inherited).
	ToolsRemove []string
}

// Selector is a parsed resource selector (§1.1).
type Selector struct {
	// Scope is ScopeProject, ScopeGlobal, or "" for a bare id.
	Scope Scope
	// ID is the resource id.
	ID string
}

// RegexRule is the typed view of one raw regex rule (§6.1), as read by
// Stack.RegexRules. Invalid field values read as absent.
type RegexRule struct {
	// ID is the trimmed rule id ("" when missing).
	ID string
	// Name; "" = absent.
	Name string
	// Enabled is false only when the rule says "enabled": false.
	Enabled bool
	// Stage as written (may be invalid).
	Stage RegexStage
	// Effect defaults to EffectOutgoing.
	Effect RegexEffect
	// Frequency defaults to FrequencyTurn.
	Frequency RegexFrequency
	// Pattern is the JavaScript RegExp source.
	Pattern string
	// Flags is a subset of "gimsu".
	Flags string
	// Replace is the replacement template (default "").
	Replace string
	// TrimStrings; nil = absent.
	TrimStrings []string
	// Roles; nil = absent (all roles).
	Roles []string
	// Targets; nil = absent (both targets).
	Targets []RegexTarget
	// MaxMessages, MaxChars: 0 = absent.
	MaxMessages, MaxChars int
	// MinDepth, MaxDepth: -1 = absent.
	MinDepth, MaxDepth int
}
