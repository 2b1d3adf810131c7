package preset

import (
	"math"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// maxCapabilityBindings is the binding limit of one Preset (§9.4).
const maxCapabilityBindings = 256

// validator collects diagnostics for one Preset in pi-forge's order.
type validator struct {
	opts  ParseOptions
	diags Diagnostics
}

func newValidator(opts ParseOptions) *validator {
	if opts.Scope == "" {
		opts.Scope = ScopeProject
	}
	return &validator{opts: opts}
}

// Validate runs pi-forge's validatePromptStack over a normalized stack: the
// shape checks of the normalized JSON form, then the structural rules of §7,
// the policy rules of §5 and the regex rules of §6.2. The result is not
// de-duplicated (Parse de-duplicates the whole list).
func Validate(stack *Stack, opts ParseOptions) Diagnostics {
	v := newValidator(opts)
	v.rawShape(ToJSON(stack))
	v.structure(stack)
	v.policies(stack)
	v.diags = append(v.diags, ValidateRegexConfig(stack.Regex)...)
	return v.diags
}

// rawShape mirrors validateRawPromptStackShape over a raw (or normalized) value.
func (v *validator) rawShape(value any) {
	obj, ok := value.(*jsonv.Object)
	if !ok {
		return
	}
	if id, isString := getString(obj, "id"); !isString || jsonv.TrimJS(id) == "" {
		v.diags.addError("Preset id must be a non-empty string.")
	}
	if t, present := obj.Get("type"); present && t != StackType {
		v.diags.addError(`Preset type must be "pi-forge.prompt-stack" when provided by the legacy schema.`)
	}
	v.optionalString(obj, "name", "Preset name")
	v.optionalString(obj, "description", "Preset description")
	v.optionalBool(obj, "autoActivate", "Preset autoActivate")
	if m, present := obj.Get("mode"); present && m != "append" && m != "prepend" && m != "replace" {
		v.diags.addError(`Preset mode must be "append", "prepend", or "replace" when provided.`)
	}
	v.rawDefaults(obj)
	v.rawContext(obj)
	v.rawVariables(obj)
	v.rawParameters(obj)
	if obj.Has("instructionModes") {
		v.diags.addError("Preset instructionModes is no longer supported; rename it to capabilities.")
	}
	v.rawCapabilities(obj)
	items, _ := get(obj, "items").([]any)
	for i, item := range items {
		if itemObj, isObj := item.(*jsonv.Object); isObj {
			v.rawItem(itemObj, i)
		}
	}
}

func (v *validator) optionalString(obj *jsonv.Object, key, label string) {
	if x, present := obj.Get(key); present {
		if _, isString := x.(string); !isString {
			v.diags.addError(label + " must be a string when provided.")
		}
	}
}

func (v *validator) optionalBool(obj *jsonv.Object, key, label string) {
	if x, present := obj.Get(key); present {
		if _, isBool := x.(bool); !isBool {
			v.diags.addError(label + " must be a boolean when provided.")
		}
	}
}

func (v *validator) rawDefaults(obj *jsonv.Object) {
	value, present := obj.Get("defaults")
	if !present {
		return
	}
	defaults, ok := value.(*jsonv.Object)
	if !ok {
		v.diags.addError("Preset defaults must be an object when provided.")
		return
	}
	v.optionalBool(defaults, "syntheticMessagesVisible", "defaults.syntheticMessagesVisible")
	if p, present := defaults.Get("unresolvedMacroPolicy"); present {
		switch jsonv.ToString(p) {
		case "warn", "keep", "error":
		default:
			v.diags.addError(`defaults.unresolvedMacroPolicy must be "warn", "keep", or "error" when provided.`)
		}
	}
}

func (v *validator) rawContext(obj *jsonv.Object) {
	value, present := obj.Get("context")
	if !present {
		return
	}
	context, ok := value.(*jsonv.Object)
	if !ok {
		v.diags.addError("Preset context must be an object when provided.")
		return
	}
	v.optionalBool(context, "allowDuplicateChatHistory", "context.allowDuplicateChatHistory")
	v.optionalBool(context, "mergeConsecutiveRoles", "context.mergeConsecutiveRoles")
	v.optionalString(context, "mergeSeparator", "context.mergeSeparator")
}

func (v *validator) rawVariables(obj *jsonv.Object) {
	value, present := obj.Get("variables")
	if !present {
		return
	}
	variables, ok := value.(*jsonv.Object)
	if !ok {
		v.diags.addError("Preset variables must be an object when provided.")
		return
	}
	variables.Range(func(name string, x any) bool {
		if _, isString := x.(string); !isString {
			v.diags.addError("Preset variable " + name + " must be a string.")
		}
		return true
	})
}

func (v *validator) rawParameters(obj *jsonv.Object) {
	sv, _ := get(obj, "schemaVersion").(float64)
	_, hasVariables := obj.Get("variables")
	value, hasParameters := obj.Get("parameters")
	if sv == 2 && hasVariables {
		v.diags.addWarning("schemaVersion 2 presets use parameters; variables is ignored.")
	}
	if sv != 2 && hasParameters {
		v.diags.addWarning("schemaVersion 1 presets use variables; parameters is ignored.")
	}
	if !hasParameters {
		return
	}
	parameters, ok := value.(*jsonv.Object)
	if !ok {
		v.diags.addError("Preset parameters must be an object when provided.")
		return
	}
	parameters.Range(func(name string, x any) bool {
		if !isJSONCompatible(x) {
			v.diags.addError("Preset parameter " + name + " must be a JSON-compatible value.")
		}
		return true
	})
}

func (v *validator) rawItem(item *jsonv.Object, index int) {
	n := strconv.Itoa(index + 1)
	itemID := "item-" + n
	rawID, idIsString := getString(item, "id")
	if t := jsonv.TrimJS(rawID); idIsString && t != "" {
		itemID = t
	}
	kind, _ := get(item, "kind").(string)
	if kind != "block" && kind != "slot" {
		v.diags.add(LevelError, "Item "+n+` kind must be "block" or "slot".`, itemID)
	}
	if !idIsString || jsonv.TrimJS(rawID) == "" {
		v.diags.add(LevelError, "Item "+n+" id must be a non-empty string.", itemID)
	}
	if x, present := item.Get("name"); present {
		if _, isString := x.(string); !isString {
			v.diags.add(LevelError, "Item name must be a string when provided.", itemID)
		}
	}
	if x, present := item.Get("enabled"); present {
		if _, isBool := x.(bool); !isBool {
			v.diags.add(LevelError, "Item enabled must be a boolean when provided.", itemID)
		}
	}
	if x, present := item.Get("role"); present {
		if r, isString := x.(string); !isString || !isValidRole(r) {
			v.diags.add(LevelError, "Invalid role: "+jsonv.ToString(x), itemID)
		}
	}
	if x, present := item.Get("tags"); present && !isStringArray(x) {
		v.diags.add(LevelError, "Item tags must be an array of strings when provided.", itemID)
	}
	if x, present := item.Get("source"); present {
		if _, isObj := x.(*jsonv.Object); !isObj {
			v.diags.add(LevelError, "Item source must be an object when provided.", itemID)
		}
	}
	if kind == "block" {
		if _, isString := get(item, "content").(string); !isString {
			v.diags.add(LevelError, "Block content must be a string.", itemID)
		}
	}
	if kind == "slot" {
		if slot, isString := getString(item, "slot"); !isString || jsonv.TrimJS(slot) == "" {
			v.diags.add(LevelError, "Slot name must be a non-empty string.", itemID)
		}
		if x, present := item.Get("options"); present {
			if _, isObj := x.(*jsonv.Object); !isObj {
				v.diags.add(LevelError, "Slot options must be an object when provided.", itemID)
			}
		}
	}
}

func isStringArray(value any) bool {
	list, ok := value.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		if _, isString := e.(string); !isString {
			return false
		}
	}
	return true
}

// structure checks ids, roles, slots and chat-history placement (§7).
func (v *validator) structure(stack *Stack) {
	if jsonv.TrimJS(stack.ID) == "" {
		v.diags.addError("Preset id must not be empty.")
	}
	ids := make(map[string]bool, len(stack.Items))
	chatHistoryCount := 0
	seenNonSystem := false
	for i := range stack.Items {
		item := &stack.Items[i]
		if ids[item.ID] {
			v.diags.add(LevelError, "Duplicate item id: "+item.ID, item.ID)
		}
		ids[item.ID] = true
		if item.Role != RoleNone && !isValidRole(string(item.Role)) {
			v.diags.add(LevelError, "Invalid role: "+string(item.Role), item.ID)
		}
		if item.IsEnabled() {
			switch item.Role {
			case RoleSystem:
				if seenNonSystem {
					v.diags.add(LevelWarning, "System item appears after non-system items; item position across the system/message channels has no effect on compilation. Use a user-role item for in-conversation injection.", item.ID)
				}
			case RoleUser, RoleAssistant, RoleCustom:
				seenNonSystem = true
			}
		}
		if item.Kind == KindSlot {
			if !v.isSupportedSlot(item.Slot) {
				v.diags.add(LevelWarning, "Unsupported slot: "+item.Slot, item.ID)
			}
			if item.Slot == "chat-history" {
				if item.IsEnabled() {
					chatHistoryCount++
				}
				v.chatHistoryOptions(item)
			}
		}
		if item.Kind == KindBlock && item.IsEnabled() && item.Role == RoleNone {
			v.diags.add(LevelWarning, "Enabled block has no role and will be ignored.", item.ID)
		}
	}
	if chatHistoryCount == 0 {
		v.diags.addWarning("No enabled chat-history slot found; Pi chat context will be appended at the end.")
	} else if chatHistoryCount > 1 && (stack.Context == nil || !jsonv.Truthy(get(stack.Context, "allowDuplicateChatHistory"))) {
		v.diags.addWarning("Multiple enabled chat-history slots found; only the first will be expanded unless context.allowDuplicateChatHistory is true.")
	}
}

func (v *validator) isSupportedSlot(slot string) bool {
	for _, s := range BuiltinSlots {
		if s == slot {
			return true
		}
	}
	for _, s := range v.opts.ExtraSlots {
		if s == slot {
			return true
		}
	}
	return false
}

// chatHistoryOptions validates chat-history slot options (§4.4).
func (v *validator) chatHistoryOptions(item *Item) {
	options := item.Options
	if options == nil {
		return
	}
	for _, key := range []string{"includeLastUserMessage", "stripAssistantThinking", "includeSummaries"} {
		if x, present := options.Get(key); present {
			if _, isBool := x.(bool); !isBool {
				v.diags.add(LevelWarning, "chat-history option "+key+" should be a boolean.", item.ID)
			}
		}
	}
	if x, present := options.Get("roles"); present && !isStringArray(x) {
		v.diags.add(LevelError, "chat-history option roles must be an array of strings.", item.ID)
	}
	if x, present := options.Get("toolMode"); present && x != "keep" && x != "drop" {
		v.diags.add(LevelError, `chat-history option toolMode must be "keep" or "drop".`, item.ID)
	}
	for _, key := range []string{"maxMessages", "maxChars"} {
		if x, present := options.Get(key); present && !isPositiveInteger(x) {
			v.diags.add(LevelError, "chat-history option "+key+" must be a positive integer.", item.ID)
		}
	}
}

// isPositiveInteger mirrors Number.isInteger(x) && x > 0.
func isPositiveInteger(x any) bool {
	f, ok := x.(float64)
	return ok && f > 0 && isInteger(f)
}

// isNonNegativeInteger mirrors Number.isInteger(x) && x >= 0.
func isNonNegativeInteger(x any) bool {
	f, ok := x.(float64)
	return ok && f >= 0 && isInteger(f)
}

// isInteger mirrors Number.isInteger for a float64.
func isInteger(f float64) bool {
	return !math.IsInf(f, 0) && !math.IsNaN(f) && math.Trunc(f) == f
}

// policies checks the tool and skill policies (§5).
func (v *validator) policies(stack *Stack) {
	v.resourcePolicy(stack.Tools, "tools")
	v.toolInitial(stack.Tools)
	v.resourcePolicy(stack.Skills, "skills")
	if HasResourcePolicy(stack.Skills) {
		v.diags.add(LevelInfo, "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does not disable explicit skill invocation and is not a security boundary.", "")
		if stack.Mode == ModeAppend || stack.Mode == ModePrepend {
			v.diags.addWarning(`skills policy only filters pi-forge skills slots. Use mode "replace" if you need the base Pi prompt to omit filtered skills.`)
		}
	}
}

func (v *validator) resourcePolicy(p *ResourcePolicy, label string) {
	if p == nil {
		return
	}
	if len(p.Allow) > 0 && len(p.Deny) > 0 {
		v.diags.addError(label + " policy must use either allow or deny, not both.")
	}
	for _, list := range []struct {
		key      string
		patterns []string
	}{{"allow", p.Allow}, {"deny", p.Deny}} {
		seen := make(map[string]bool, len(list.patterns))
		for _, pattern := range list.patterns {
			if seen[pattern] {
				v.diags.addWarning("Duplicate " + label + "." + list.key + " pattern: " + pattern + ".")
			}
			seen[pattern] = true
		}
	}
}

func (v *validator) toolInitial(p *ResourcePolicy) {
	if p == nil || p.Initial == nil {
		return
	}
	seen := make(map[string]bool, len(p.Initial))
	for i, name := range p.Initial {
		if !IsValidToolName(name) {
			v.diags.addError("tools.initial[" + strconv.Itoa(i) + "] must be a valid concrete tool name (wildcards are not allowed).")
			continue
		}
		if seen[name] {
			v.diags.addWarning("Duplicate tools.initial tool name: " + name + ".")
		}
		seen[name] = true
		if HasResourcePolicy(p) && !IsAllowed(p, name) {
			v.diags.addError(`tools.initial tool "` + name + `" is blocked by the allow/deny policy.`)
		}
	}
}
