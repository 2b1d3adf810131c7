package preset

import (
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// maxOverrideContentLength is the UTF-16 limit of overrides.content / appendContent.
const maxOverrideContentLength = 100000

// maxToolListLength is the limit of a tools.add / tools.remove list.
const maxToolListLength = 256

// fieldDiagnostic is a capability-style diagnostic ({level, message, field}).
type fieldDiagnostic struct {
	level          Level
	message, field string
}

// rawCapabilities validates the Preset "capabilities" bindings (§9.4, §7).
func (v *validator) rawCapabilities(obj *jsonv.Object) {
	value, present := obj.Get("capabilities")
	if !present {
		return
	}
	bindings, ok := value.([]any)
	if !ok {
		v.diags.addError("Preset capabilities must be an array when provided.")
		return
	}
	if len(bindings) > maxCapabilityBindings {
		v.diags.addError("Preset capabilities cannot exceed " + strconv.Itoa(maxCapabilityBindings) + " bindings (got " + strconv.Itoa(len(bindings)) + ").")
	}
	for _, binding := range bindings {
		for _, d := range ValidateBinding(binding, v.opts.Scope) {
			v.diags.add(d.Level, d.Message, "")
		}
	}
	seen := make(map[string]bool, len(bindings))
	for _, binding := range bindings {
		b, isObj := binding.(*jsonv.Object)
		if !isObj {
			continue
		}
		ref, isString := getString(b, "ref")
		if !isString || jsonv.TrimJS(ref) == "" {
			continue
		}
		id := ""
		if rawID, idIsString := getString(b, "id"); idIsString && jsonv.TrimJS(rawID) != "" {
			id = jsonv.TrimJS(rawID)
		} else if sel, err := ParseSelector(ref); err == "" {
			id = sel.ID
		}
		if id == "" {
			continue
		}
		if seen[id] {
			v.diags.addError("Duplicate capability binding id: " + id)
		}
		seen[id] = true
	}
}

// ValidateBinding validates one raw capability binding for a Preset of the
// given owner scope (validateCapabilityBinding, §9.4). The result is
// de-duplicated on (level, field, message); ItemID is always "".
func ValidateBinding(raw any, owner Scope) Diagnostics {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return Diagnostics{{Level: LevelError, Message: "Capability binding must be an object."}}
	}
	var out []fieldDiagnostic
	add := func(field, message string) { out = append(out, fieldDiagnostic{LevelError, message, field}) }
	obj.Range(func(key string, _ any) bool {
		switch key {
		case "ref", "id", "modelCallable", "overrides":
		default:
			add(key, "Unsupported binding field: "+key)
		}
		return true
	})
	if ref, present := obj.Get("ref"); !present {
		add("ref", "Binding ref is required.")
	} else if s, isString := ref.(string); !isString || jsonv.TrimJS(s) == "" {
		add("ref", "Binding ref must be a non-empty string.")
	} else if sel, err := ParseSelector(s); err != "" {
		add("ref", err)
	} else if owner == ScopeGlobal && sel.Scope == ScopeProject {
		add("ref", "Global binding cannot reference project capability: "+s+".")
	}
	if id, present := obj.Get("id"); present {
		if s, isString := id.(string); !isString || !IsValidResourceID(s) {
			add("id", "Binding id must be a valid resource id.")
		}
	}
	if mc, present := obj.Get("modelCallable"); present {
		if _, isBool := mc.(bool); !isBool {
			add("modelCallable", "modelCallable must be a boolean when provided.")
		}
	}
	if overrides, present := obj.Get("overrides"); present {
		out = append(out, validateOverrides(overrides)...)
	}
	return dedupeFieldDiagnostics(out)
}

func validateOverrides(raw any) []fieldDiagnostic {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return []fieldDiagnostic{{LevelError, "overrides must be an object.", "overrides"}}
	}
	var out []fieldDiagnostic
	add := func(field, message string) { out = append(out, fieldDiagnostic{LevelError, message, field}) }
	obj.Range(func(key string, _ any) bool {
		switch key {
		case "content", "appendContent", "tools":
		default:
			add("overrides."+key, "Unsupported override field: "+key)
		}
		return true
	})
	if obj.Has("content") && obj.Has("appendContent") {
		add("overrides", "Cannot specify both content and appendContent in overrides.")
	}
	for _, key := range []string{"content", "appendContent"} {
		value, present := obj.Get(key)
		if !present {
			continue
		}
		if s, isString := value.(string); !isString {
			add("overrides."+key, "overrides."+key+" must be a string.")
		} else if jsonv.UTF16Len(s) > maxOverrideContentLength {
			add("overrides."+key, "overrides."+key+" exceeds maximum length of "+strconv.Itoa(maxOverrideContentLength)+" characters.")
		}
	}
	if tools, present := obj.Get("tools"); present {
		toolsObj, isObj := tools.(*jsonv.Object)
		if !isObj {
			add("overrides.tools", "overrides.tools must be an object.")
			return out
		}
		toolsObj.Range(func(key string, _ any) bool {
			if key != "add" && key != "remove" {
				add("overrides.tools."+key, "Unsupported tools field in overrides: "+key)
			}
			return true
		})
		for _, key := range []string{"add", "remove"} {
			if list, present := toolsObj.Get(key); present {
				out = append(out, validateToolList(list, "overrides.tools."+key)...)
			}
		}
	}
	return out
}

// validateToolList checks a capability tools.add/tools.remove style list and
// returns capability-style diagnostics (message, field) as pi-forge's
// validateToolList does; used for binding overrides.
func validateToolList(list any, fieldName string) []fieldDiagnostic {
	items, ok := list.([]any)
	if !ok {
		return []fieldDiagnostic{{LevelError, fieldName + " must be an array of tool names.", fieldName}}
	}
	var out []fieldDiagnostic
	if len(items) > maxToolListLength {
		out = append(out, fieldDiagnostic{LevelError, fieldName + " cannot exceed " + strconv.Itoa(maxToolListLength) + " tools (got " + strconv.Itoa(len(items)) + ").", fieldName})
	}
	for i, item := range items {
		field := fieldName + "[" + strconv.Itoa(i) + "]"
		at := "Tool name at index " + strconv.Itoa(i)
		name, isString := item.(string)
		var message string
		switch {
		case !isString:
			message = at + " must be a string."
		case name == "":
			message = at + " cannot be empty."
		case jsonv.UTF16Len(name) > maxToolNameLength:
			message = at + " exceeds maximum length of " + strconv.Itoa(maxToolNameLength) + " characters."
		default:
			switch toolNameFault(name) {
			case "whitespace":
				message = at + ` ("` + name + `") cannot contain whitespace.`
			case "control":
				message = at + " cannot contain control characters."
			case "wildcard":
				message = at + ` ("` + name + `") cannot contain wildcard characters (* or ?).`
			}
		}
		if message != "" {
			out = append(out, fieldDiagnostic{LevelError, message, field})
		}
	}
	return out
}

func dedupeFieldDiagnostics(in []fieldDiagnostic) Diagnostics {
	seen := make(map[fieldDiagnostic]bool, len(in))
	out := make(Diagnostics, 0, len(in))
	for _, d := range in {
		if seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, Diagnostic{Level: d.level, Message: d.message})
	}
	return out
}

// CapabilityBindings returns the typed view of the object bindings in
// Stack.Capabilities (invalid field values read as absent).
func (s *Stack) CapabilityBindings() []CapabilityBinding {
	out := make([]CapabilityBinding, 0, len(s.Capabilities))
	for _, raw := range s.Capabilities {
		obj, ok := raw.(*jsonv.Object)
		if !ok {
			continue
		}
		var b CapabilityBinding
		b.Ref, _ = getString(obj, "ref")
		b.ID, _ = getString(obj, "id")
		b.ModelCallable, _ = get(obj, "modelCallable").(bool)
		if ov, isObj := get(obj, "overrides").(*jsonv.Object); isObj {
			o := &BindingOverrides{}
			if s, isString := getString(ov, "content"); isString {
				o.Content = &s
			}
			if s, isString := getString(ov, "appendContent"); isString {
				o.AppendContent = &s
			}
			if tools, isObj := get(ov, "tools").(*jsonv.Object); isObj {
				o.ToolsAdd = stringList(get(tools, "add"))
				o.ToolsRemove = stringList(get(tools, "remove"))
			}
			b.Overrides = o
		}
		out = append(out, b)
	}
	return out
}

// EffectiveID is the binding id, or the id part of its ref when absent.
func (b CapabilityBinding) EffectiveID() string {
	if t := jsonv.TrimJS(b.ID); t != "" {
		return t
	}
	if sel, err := ParseSelector(b.Ref); err == "" {
		return sel.ID
	}
	return ""
}

// stringList returns the string elements of an array, or nil for a non-array.
func stringList(value any) []string {
	list, ok := value.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, isString := e.(string); isString {
			out = append(out, s)
		}
	}
	return out
}
