package preset

import (
	"math"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ParseOptions tune Parse beyond the file bytes.
type ParseOptions struct {
	// Scope is the storage scope of the Preset file; it decides whether
	// bindings may reference project capabilities. "" means ScopeProject.
	Scope Scope
	// ExtraSlots are custom slot names registered by trusted extension
	// modules; they are "supported" for validation besides BuiltinSlots.
	ExtraSlots []string
}

// BuiltinSlots are the built-in slot names (§3.1), in registry order.
var BuiltinSlots = []string{
	"chat-history", "tools", "tool-guidelines", "skills", "project-context",
	"append-system-prompt", "date", "cwd", "date-cwd", "active-model", "pi-docs",
}

// Parse parses, normalizes and validates a Preset file (parsePromptStack,
// §2, §5, §6.2, §7, §9.4) in project scope. basename is the file name
// including ".json". It never fails: unparsable input or a non-object root
// yields the fallback stack (§2.2) with an error diagnostic. Diagnostics are
// de-duplicated on (level, message, itemId) in pi-forge's order.
func Parse(raw []byte, basename string) (*Stack, Diagnostics) {
	return ParseWith(raw, basename, ParseOptions{})
}

// ParseWith is Parse with an explicit scope and custom slot names.
func ParseWith(raw []byte, basename string, opts ParseOptions) (*Stack, Diagnostics) {
	value, err := jsonv.Parse(raw)
	if err != nil {
		return FallbackStack(basename), Diagnostics{{Level: LevelError, Message: "Failed to parse JSON: " + err.Error()}}
	}
	return ParseValue(value, basename, opts)
}

// ParseValue is ParseWith for an already parsed JSON value.
func ParseValue(value any, basename string, opts ParseOptions) (*Stack, Diagnostics) {
	v := newValidator(opts)
	v.rawShape(value)
	stack := normalizeStack(value, basename, &v.diags)
	v.diags = append(v.diags, Validate(stack, opts)...)
	if basename == "default.json" {
		if obj, ok := value.(*jsonv.Object); ok && !obj.Has("autoActivate") {
			v.diags.addWarning(`default.json no longer auto-activates by filename; set "autoActivate": true to keep auto-activating this stack.`)
		}
	}
	return stack, v.diags.Dedupe()
}

// FallbackStack is the stack used for an unreadable or unparsable file (§2.2).
func FallbackStack(basename string) *Stack {
	name := basename
	return &Stack{
		SchemaVersion: 1,
		Type:          StackType,
		ID:            stripJSONExt(basename),
		Name:          &name,
		Items:         []Item{},
	}
}

// stripJSONExt mirrors Node's path.basename(name, ".json").
func stripJSONExt(basename string) string {
	return strings.TrimSuffix(basename, ".json")
}

func normalizeStack(value any, basename string, diags *Diagnostics) *Stack {
	obj, ok := value.(*jsonv.Object)
	if !ok {
		diags.addError("Preset root must be a JSON object.")
		return FallbackStack(basename)
	}
	stack := &Stack{SchemaVersion: 1}
	fallbackID := stripJSONExt(basename)
	stack.ID = fallbackID
	if rawID, isString := getString(obj, "id"); isString {
		if trimmed := jsonv.TrimJS(rawID); trimmed != "" {
			if IsValidResourceID(trimmed) {
				stack.ID = trimmed
			} else {
				diags.addError("Preset id " + trimmed + " must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens; falling back to " + fallbackID + ".")
			}
		}
	}
	if sv, present := obj.Get("schemaVersion"); present {
		if f, isNum := sv.(float64); isNum && f == 2 {
			stack.SchemaVersion = 2
		} else if !isNum || f != 1 {
			diags.addWarning("Unsupported schemaVersion; assuming 1.")
		}
	}

	rawItems, isArray := get(obj, "items").([]any)
	stack.Items = make([]Item, 0, len(rawItems))
	for i, rawItem := range rawItems {
		stack.Items = append(stack.Items, normalizeItem(rawItem, i, diags))
	}
	if !isArray {
		diags.addError("Preset must contain an items array.")
	}
	if state, isObj := get(obj, "state").(*jsonv.Object); isObj && state.Len() > 0 {
		diags.add(LevelInfo, "state is no longer supported and was ignored; use stack.variables and template interpolation instead.", "")
	}
	if obj.Has("instructionModes") {
		diags.addError("Preset instructionModes is no longer supported; rename it to capabilities.")
	}

	if t, _ := getString(obj, "type"); t == StackType {
		stack.Type = StackType
	}
	if s, isString := getString(obj, "name"); isString {
		stack.Name = &s
	}
	if s, isString := getString(obj, "description"); isString {
		stack.Description = &s
	}
	if b, isBool := get(obj, "autoActivate").(bool); isBool {
		stack.AutoActivate = &b
	}
	if m, _ := getString(obj, "mode"); m == "append" || m == "prepend" || m == "replace" {
		stack.Mode = Mode(m)
	}
	stack.Defaults, _ = get(obj, "defaults").(*jsonv.Object)
	stack.Context, _ = get(obj, "context").(*jsonv.Object)
	stack.Tools = normalizeResourcePolicy(obj, "tools", diags, true)
	stack.Skills = normalizeResourcePolicy(obj, "skills", diags, false)
	if stack.SchemaVersion == 1 {
		stack.Variables = filterRecord(get(obj, "variables"), func(v any) bool { _, s := v.(string); return s })
	} else {
		stack.Parameters = filterRecord(get(obj, "parameters"), isJSONCompatible)
	}
	if r, present := obj.Get("regex"); present {
		if ro, isObj := r.(*jsonv.Object); isObj {
			stack.Regex = ro
		} else {
			diags.addWarning("regex must be an object when provided.")
		}
	}
	if caps, isArr := get(obj, "capabilities").([]any); isArr {
		stack.Capabilities = make([]any, len(caps))
		for i, c := range caps {
			stack.Capabilities[i] = jsonv.Clone(c)
		}
	}
	stack.Import, _ = get(obj, "import").(*jsonv.Object)
	return stack
}

func normalizeItem(value any, index int, diags *Diagnostics) Item {
	fallbackID := "item-" + strconv.Itoa(index+1)
	obj, ok := value.(*jsonv.Object)
	if !ok {
		diags.add(LevelError, "Item "+strconv.Itoa(index+1)+" must be an object.", fallbackID)
		disabled := false
		return Item{Kind: KindBlock, ID: fallbackID, Enabled: &disabled}
	}
	item := Item{Kind: KindBlock, ID: fallbackID}
	if k, _ := getString(obj, "kind"); k == "slot" {
		item.Kind = KindSlot
	}
	switch id := get(obj, "id").(type) {
	case string:
		if t := jsonv.TrimJS(id); t != "" {
			item.ID = t
		}
	case float64:
		if !math.IsInf(id, 0) && !math.IsNaN(id) {
			item.ID = jsonv.FormatNumber(id)
		}
	}
	if s, isString := getString(obj, "name"); isString {
		item.Name = &s
	}
	if b, isBool := get(obj, "enabled").(bool); isBool {
		item.Enabled = &b
	}
	if r, _ := getString(obj, "role"); isValidRole(r) {
		item.Role = Role(r)
	}
	if tags, isArr := get(obj, "tags").([]any); isArr {
		item.Tags = make([]string, 0, len(tags))
		for _, t := range tags {
			if s, isString := t.(string); isString {
				item.Tags = append(item.Tags, s)
			}
		}
	}
	item.Source, _ = get(obj, "source").(*jsonv.Object)
	if item.Kind == KindSlot {
		item.Slot, _ = getString(obj, "slot")
		item.Options, _ = get(obj, "options").(*jsonv.Object)
	} else {
		item.Content, _ = getString(obj, "content")
	}
	return item
}

func isValidRole(r string) bool {
	return r == "system" || r == "user" || r == "assistant" || r == "custom"
}

// normalizeResourcePolicy normalizes obj[label] (normalizeResourcePolicy).
func normalizeResourcePolicy(obj *jsonv.Object, label string, diags *Diagnostics, includeInitial bool) *ResourcePolicy {
	value, present := obj.Get(label)
	if !present {
		return nil
	}
	policyObj, ok := value.(*jsonv.Object)
	if !ok {
		diags.addError(label + " policy must be an object when provided.")
		return nil
	}
	allow := normalizePolicyPatterns(policyObj, "allow", label+".allow", diags)
	deny := normalizePolicyPatterns(policyObj, "deny", label+".deny", diags)
	policy := &ResourcePolicy{}
	if includeInitial {
		policy.Initial = normalizeInitialToolNames(policyObj, label+".initial", diags)
	}
	switch {
	case allow != nil && deny != nil:
		diags.addError(label + " policy must use either allow or deny, not both.")
		policy.Allow = allow
	case allow != nil:
		policy.Allow = allow
	case deny != nil:
		policy.Deny = deny
	}
	return policy
}

func normalizePolicyPatterns(obj *jsonv.Object, key, label string, diags *Diagnostics) []string {
	value, present := obj.Get(key)
	if !present {
		return nil
	}
	list, ok := value.([]any)
	if !ok {
		diags.addError(label + " must be an array of strings when provided.")
		return nil
	}
	var patterns []string
	for i, entry := range list {
		s, isString := entry.(string)
		trimmed := jsonv.TrimJS(s)
		if !isString || trimmed == "" {
			diags.addError(label + "[" + strconv.Itoa(i) + "] must be a non-empty string.")
			continue
		}
		patterns = append(patterns, trimmed)
	}
	return patterns
}

func normalizeInitialToolNames(obj *jsonv.Object, label string, diags *Diagnostics) []string {
	value, present := obj.Get("initial")
	if !present {
		return nil
	}
	list, ok := value.([]any)
	if !ok {
		diags.addError(label + " must be an array of concrete tool names when provided.")
		return nil
	}
	names := make([]string, 0, len(list))
	seen := make(map[string]bool, len(list))
	for i, entry := range list {
		s, isString := entry.(string)
		name := jsonv.TrimJS(s)
		if !isString || !IsValidToolName(name) {
			diags.addError(label + "[" + strconv.Itoa(i) + "] must be a valid concrete tool name (wildcards are not allowed).")
			continue
		}
		if seen[name] {
			diags.addWarning("Duplicate " + label + " tool name: " + name + ".")
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	return names
}

// filterRecord copies the entries of a plain object whose values pass keep;
// a non-object yields nil.
func filterRecord(value any, keep func(any) bool) *jsonv.Object {
	obj, ok := value.(*jsonv.Object)
	if !ok {
		return nil
	}
	out := jsonv.NewObject()
	obj.Range(func(k string, v any) bool {
		if keep(v) {
			out.Set(k, v)
		}
		return true
	})
	return out
}

// isJSONCompatible mirrors isPromptVariableValue: null, strings, booleans,
// finite numbers, and arrays/objects of those.
func isJSONCompatible(value any) bool {
	switch v := value.(type) {
	case nil, string, bool:
		return true
	case float64:
		return !math.IsInf(v, 0) && !math.IsNaN(v)
	case []any:
		for _, e := range v {
			if !isJSONCompatible(e) {
				return false
			}
		}
		return true
	case *jsonv.Object:
		ok := true
		v.Range(func(_ string, e any) bool {
			ok = isJSONCompatible(e)
			return ok
		})
		return ok
	}
	return false
}

// get returns obj[key] or nil when absent.
func get(obj *jsonv.Object, key string) any {
	v, _ := obj.Get(key)
	return v
}

// getString returns obj[key] and whether it is a string.
func getString(obj *jsonv.Object, key string) (string, bool) {
	s, ok := get(obj, key).(string)
	return s, ok
}
