// Package profile implements pi-forge agent profiles (spec pi-forge-formats
// §11): the codec (parse, normalize, validate, serialize, §11.1), lookup and
// Preset resolution relative to the profile's scope (§11.2), and pure
// helpers for preflight (§11.3), auto-activation and the provenance entry
// (§11.4).
//
// Everything here is pure; files are handed in as bytes. Messages are
// pi-forge's, byte for byte.
package profile

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Type is the only accepted value of a profile's "type" field.
const Type = "pi-forge.agent-profile"

// ThinkingLevels are the accepted thinking levels, in pi-forge's order.
var ThinkingLevels = []string{"off", "minimal", "low", "medium", "high", "xhigh", "max"}

// Diagnostic is one profile diagnostic ({level, message, field?}); the shape
// is shared with capabilities.
type Diagnostic = capability.Diagnostic

// Diagnostics is an ordered list of profile diagnostics. Unlike capability
// diagnostics they are not de-duplicated.
type Diagnostics = capability.Diagnostics

// Model is a model reference {provider, id}.
type Model struct {
	Provider string
	ID       string
}

// String formats the reference as "provider/id".
func (m Model) String() string { return m.Provider + "/" + m.ID }

// Profile is a normalized agent profile. schemaVersion (1) and type are
// implied; optional fields are nil when absent.
type Profile struct {
	// ID is the trimmed profile id (the file basename when missing).
	ID string
	// Name; nil = absent.
	Name *string
	// Description; nil = absent.
	Description *string
	// AutoActivate; nil = absent (false).
	AutoActivate *bool
	// Model is the trimmed model reference ("" parts when invalid).
	Model Model
	// ThinkingLevel is one of ThinkingLevels ("off" when invalid).
	ThinkingLevel string
	// PromptStack is the trimmed Preset selector; nil = null (no Preset).
	PromptStack *string
}

// AutoActivates reports whether the profile asks for auto-activation.
func (p *Profile) AutoActivates() bool { return p.AutoActivate != nil && *p.AutoActivate }

const msgBadID = "Profile id must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."

// Parse parses, normalizes and validates one agent profile file
// (parseAgentProfile, §11.1). basename is the file name (a path is reduced
// to its base); without ".json" it is the fallback id. scope is the storage
// scope; the codec's rules do not depend on it (scope rules apply in
// ResolvePromptStack). Parse never fails: invalid JSON yields the fallback
// profile with one error.
func Parse(raw []byte, basename string, scope preset.Scope) (*Profile, Diagnostics) {
	_ = scope
	fallbackID := idFromBasename(basename)
	value, err := jsonv.Parse(raw)
	if err != nil {
		return fallback(fallbackID), Diagnostics{errorAt("", "Failed to parse JSON: "+err.Error())}
	}
	return ParseValue(value, fallbackID)
}

// ParseValue normalizes and validates an already parsed JSON value.
func ParseValue(value any, fallbackID string) (*Profile, Diagnostics) {
	var diags Diagnostics
	p := normalize(value, fallbackID, &diags)
	return p, append(diags, Validate(p)...)
}

func errorAt(field, message string) Diagnostic {
	return Diagnostic{Level: preset.LevelError, Message: message, Field: field}
}

func normalize(value any, fallbackID string, diags *Diagnostics) *Profile {
	add := func(field, message string) { *diags = append(*diags, errorAt(field, message)) }
	obj, ok := value.(*jsonv.Object)
	if !ok {
		add("", "Agent profile root must be a JSON object.")
		return fallback(fallbackID)
	}
	obj.Range(func(key string, _ any) bool {
		switch key {
		case "schemaVersion", "type", "id", "name", "description", "model", "thinkingLevel", "promptStack", "autoActivate":
		default:
			add(key, "Unsupported profile field: "+key)
		}
		return true
	})
	if v, _ := obj.Get("schemaVersion"); v != float64(1) {
		add("schemaVersion", "schemaVersion must be 1.")
	}
	if v, _ := obj.Get("type"); v != Type {
		add("type", `type must be "`+Type+`".`)
	}
	p := &Profile{ID: fallbackID}
	rawID, _ := obj.Get("id")
	if id, ok := nonEmptyString(rawID); ok {
		p.ID = id
	} else {
		add("id", "Profile id must be a non-empty string.")
	}
	rawModel, _ := obj.Get("model")
	if model, isObj := rawModel.(*jsonv.Object); isObj {
		model.Range(func(key string, _ any) bool {
			if key != "provider" && key != "id" {
				add("model."+key, "Unsupported model field: "+key)
			}
			return true
		})
		provider, _ := model.Get("provider")
		id, _ := model.Get("id")
		p.Model.Provider, _ = nonEmptyString(provider)
		p.Model.ID, _ = nonEmptyString(id)
	} else {
		add("model", "model must be an object containing provider and id.")
	}
	rawLevel, _ := obj.Get("thinkingLevel")
	if level, isString := rawLevel.(string); isString && isThinkingLevel(level) {
		p.ThinkingLevel = level
	} else {
		add("thinkingLevel", "thinkingLevel must be one of: "+strings.Join(ThinkingLevels, ", ")+".")
		p.ThinkingLevel = "off"
	}
	if rawStack, present := obj.Get("promptStack"); !present {
		add("promptStack", "promptStack is required and must be a stack id or null.")
	} else if rawStack != nil {
		if ref, ok := nonEmptyString(rawStack); ok {
			p.PromptStack = &ref
		} else {
			add("promptStack", "promptStack must be a non-empty stack id or null.")
		}
	}
	rawName, namePresent := obj.Get("name")
	if name, isString := rawName.(string); isString {
		p.Name = &name
	} else if namePresent {
		add("name", "name must be a string when provided.")
	}
	rawDescription, descriptionPresent := obj.Get("description")
	if description, isString := rawDescription.(string); isString {
		p.Description = &description
	} else if descriptionPresent {
		add("description", "description must be a string when provided.")
	}
	rawAuto, autoPresent := obj.Get("autoActivate")
	if auto, isBool := rawAuto.(bool); isBool {
		p.AutoActivate = &auto
	} else if autoPresent {
		add("autoActivate", "autoActivate must be a boolean when provided.")
	}
	return p
}

// Validate checks a normalized profile (validateAgentProfile): the id
// grammar, non-empty model parts, the thinking level and a non-blank
// promptStack.
func Validate(p *Profile) Diagnostics {
	var diags Diagnostics
	add := func(field, message string) { diags = append(diags, errorAt(field, message)) }
	if !preset.IsValidResourceID(p.ID) {
		add("id", msgBadID)
	}
	if jsonv.TrimJS(p.Model.Provider) == "" {
		add("model.provider", "model.provider must not be empty.")
	}
	if jsonv.TrimJS(p.Model.ID) == "" {
		add("model.id", "model.id must not be empty.")
	}
	if !isThinkingLevel(p.ThinkingLevel) {
		add("thinkingLevel", "Unsupported thinkingLevel: "+p.ThinkingLevel)
	}
	if p.PromptStack != nil && jsonv.TrimJS(*p.PromptStack) == "" {
		add("promptStack", "promptStack must be a non-empty stack id or null.")
	}
	return diags
}

// ValidateScope checks the promptStack reference against the scope the
// profile is saved in (validateAgentProfilePromptStackScope): the selector
// must parse and a global profile may not reference a project Preset.
func ValidateScope(p *Profile, scope preset.Scope) Diagnostics {
	if p.PromptStack == nil {
		return nil
	}
	sel, err := preset.ParseSelector(*p.PromptStack)
	if err != "" {
		return Diagnostics{errorAt("promptStack", err)}
	}
	if scope == preset.ScopeGlobal && sel.Scope == preset.ScopeProject {
		return Diagnostics{errorAt("promptStack", "Global profile "+p.ID+" cannot reference project prompt stack "+sel.ID+".")}
	}
	return nil
}

func isThinkingLevel(level string) bool {
	for _, l := range ThinkingLevels {
		if l == level {
			return true
		}
	}
	return false
}

// nonEmptyString returns the JavaScript-trimmed string when v is a string
// that is not blank.
func nonEmptyString(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	s = jsonv.TrimJS(s)
	return s, s != ""
}

func idFromBasename(name string) string {
	base := filepath.Base(name)
	if strings.HasSuffix(base, ".json") && base != ".json" {
		return strings.TrimSuffix(base, ".json")
	}
	return base
}

func fallback(id string) *Profile {
	return &Profile{ID: id, ThinkingLevel: "off"}
}

// ToJSON converts a normalized profile to its JSON object in pi-forge's key
// order: schemaVersion, type, id, name?, description?, autoActivate?, model,
// thinkingLevel, promptStack (null when absent).
func ToJSON(p *Profile) *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("schemaVersion", float64(1))
	obj.Set("type", Type)
	obj.Set("id", p.ID)
	if p.Name != nil {
		obj.Set("name", *p.Name)
	}
	if p.Description != nil {
		obj.Set("description", *p.Description)
	}
	if p.AutoActivate != nil {
		obj.Set("autoActivate", *p.AutoActivate)
	}
	model := jsonv.NewObject()
	model.Set("provider", p.Model.Provider)
	model.Set("id", p.Model.ID)
	obj.Set("model", model)
	obj.Set("thinkingLevel", p.ThinkingLevel)
	if p.PromptStack != nil {
		obj.Set("promptStack", *p.PromptStack)
	} else {
		obj.Set("promptStack", nil)
	}
	return obj
}

// Serialize writes a profile exactly like serializeAgentProfile:
// JSON.stringify(profile, null, 2) + "\n".
func Serialize(p *Profile) []byte {
	return []byte(jsonv.StringifyIndent(ToJSON(p), "  ") + "\n")
}

// SourceFingerprint is the provenance sourceFingerprint (§11.4):
// JSON.stringify of the normalized profile, compact, not a hash.
func SourceFingerprint(p *Profile) string {
	return jsonv.Stringify(ToJSON(p))
}
