package capability

import (
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// BoundCapability is one Preset capability binding resolved against a
// catalog (pi-forge's ResolvedCapabilityBinding plus what a viewer needs to
// explain a failure).
type BoundCapability struct {
	// Index is the binding's position in the Preset's capabilities array.
	Index int
	// ID is the effective binding id (id ?? the ref's id); "" when the ref
	// cannot be parsed.
	ID string
	// Ref is the exact capability the binding points at: a bare ref takes
	// the Preset's own scope. Zero when the ref is invalid.
	Ref Key
	// Preset is the owning Preset's key.
	Preset Key
	// ModelCallable is true only when the binding says so.
	ModelCallable bool
	// Overrides is the typed view of the binding's overrides; nil = absent.
	Overrides *preset.BindingOverrides
	// Diagnostics are the binding's own validation diagnostics
	// (validateCapabilityBinding; Field is not carried by engine/preset).
	Diagnostics Diagnostics
	// Source is the resolved capability entry (before overrides); nil when
	// the binding is invalid or its capability does not resolve.
	Source *Entry
	// Effective is the capability after overrides; nil on any failure.
	Effective *Capability
	// Error is the first failure of this binding on its own, in pi-forge's
	// wording; "" when the binding resolves.
	Error string
}

// Usable reports whether the binding resolved to an effective capability.
func (b *BoundCapability) Usable() bool { return b.Error == "" && b.Effective != nil }

// Resolution is the outcome of ResolveBindings.
type Resolution struct {
	// Bindings has one entry per binding (non-object bindings included),
	// each resolved on its own so a viewer can show every problem.
	Bindings []BoundCapability
	// Error is what pi-forge's resolveCapabilityBindings reports for the
	// whole Preset: the first failure in its order (all validations, then
	// duplicate ids, then resolution and overrides); "" when every binding
	// resolves.
	Error string
	// ErrorIndex is the index of the failing binding, or -1 when the error
	// concerns the whole list (the 256-binding limit) or there is no error.
	ErrorIndex int
}

// ResolveBindings resolves a Preset's capability bindings
// (resolveCapabilityBindings, §9.4). presetScope is the scope the Preset was
// loaded from: a bare ref resolves exactly in that scope, and a global Preset
// may not bind project capabilities.
func ResolveBindings(stack *preset.Stack, presetScope preset.Scope, c *Catalog) Resolution {
	res := Resolution{ErrorIndex: -1}
	if stack == nil {
		return res
	}
	if presetScope == "" {
		presetScope = preset.ScopeProject
	}
	owner := Key{Scope: presetScope, ID: stack.ID}
	raw := stack.Capabilities
	typed := stack.CapabilityBindings()
	res.Bindings = make([]BoundCapability, len(raw))
	validationFailure, duplicateFailure, resolveFailure := -1, -1, -1
	seen := map[string]bool{}
	next := 0
	for i, value := range raw {
		b := &res.Bindings[i]
		b.Index, b.Preset = i, owner
		for _, d := range preset.ValidateBinding(value, presetScope) {
			b.Diagnostics = append(b.Diagnostics, Diagnostic{Level: d.Level, Message: d.Message})
		}
		obj, isObject := value.(*jsonv.Object)
		if isObject {
			view := typed[next]
			next++
			b.ModelCallable = view.ModelCallable
			b.Overrides = view.Overrides
			if sel, err := preset.ParseSelector(view.Ref); err == "" {
				b.Ref = Key{Scope: sel.Scope, ID: sel.ID}
				if b.Ref.Scope == "" {
					b.Ref.Scope = presetScope
				}
			}
			b.ID = b.Ref.ID
			if id, isString := getString(obj, "id"); isString {
				b.ID = id
			}
		}
		if msg := b.Diagnostics.FirstError(); msg != "" {
			b.Error = msg
			if validationFailure < 0 {
				validationFailure = i
			}
			continue
		}
		if seen[b.ID] {
			b.Error = `Duplicate binding id "` + b.ID + `" at index ` + strconv.Itoa(i) + "."
			if duplicateFailure < 0 {
				duplicateFailure = i
			}
			continue
		}
		seen[b.ID] = true
		b.resolve(c)
		if b.Error != "" && resolveFailure < 0 {
			resolveFailure = i
		}
	}
	switch {
	case len(raw) > MaxBindings:
		res.Error = "Exceeded maximum bindings limit of " + strconv.Itoa(MaxBindings) + " (got " + strconv.Itoa(len(raw)) + ")."
	case validationFailure >= 0:
		res.Error, res.ErrorIndex = res.Bindings[validationFailure].Error, validationFailure
	case duplicateFailure >= 0:
		res.Error, res.ErrorIndex = res.Bindings[duplicateFailure].Error, duplicateFailure
	case resolveFailure >= 0:
		res.Error, res.ErrorIndex = res.Bindings[resolveFailure].Error, resolveFailure
	}
	return res
}

// resolve looks the binding's exact capability up and applies its overrides.
func (b *BoundCapability) resolve(c *Catalog) {
	entry, msg := Resolve(c, b.Ref.String())
	if msg != "" {
		b.Error = msg
		return
	}
	b.Source = entry
	effective, diags := ApplyOverrides(entry.Capability, b.Overrides)
	if detail := diags.FirstError(); detail != "" {
		b.Error = `Failed to apply overrides to "` + b.ID + `": ` + detail
		return
	}
	b.Effective = effective
}

// ApplyOverrides applies binding overrides to a capability
// (applyCapabilityOverrides, §9.4) without modifying it: content replaces;
// appendContent joins with a blank line (or replaces an empty base, or is
// ignored when empty); tools.add / tools.remove, when present, replace the
// list. The result is re-validated; on any error the capability is nil and
// the diagnostics say why. overrides nil means none.
func ApplyOverrides(base *Capability, overrides *preset.BindingOverrides) (*Capability, Diagnostics) {
	if diags := Validate(base); diags.HasErrors() {
		return nil, diags
	}
	out := base.Clone()
	if overrides == nil {
		return out, nil
	}
	var overrideDiags Diagnostics
	for _, o := range []struct {
		key   string
		value *string
	}{{"content", overrides.Content}, {"appendContent", overrides.AppendContent}} {
		if o.value != nil && jsonv.UTF16Len(*o.value) > MaxContentLength {
			overrideDiags.addError("overrides."+o.key, "overrides."+o.key+" exceeds maximum length of "+strconv.Itoa(MaxContentLength)+" characters.")
		}
	}
	if overrideDiags.HasErrors() {
		return nil, overrideDiags
	}
	switch {
	case overrides.Content != nil && overrides.AppendContent != nil:
		return nil, Diagnostics{{Level: preset.LevelError, Field: "overrides",
			Message: "Cannot specify both content and appendContent in overrides."}}
	case overrides.Content != nil:
		out.Content = *overrides.Content
	case overrides.AppendContent != nil:
		appendix := *overrides.AppendContent
		switch {
		case base.Content == "":
			out.Content = appendix
		case appendix != "":
			out.Content = base.Content + "\n\n" + appendix
		}
	}
	if overrides.ToolsAdd != nil {
		out.Tools.Add = append([]string{}, overrides.ToolsAdd...)
	}
	if overrides.ToolsRemove != nil {
		out.Tools.Remove = append([]string{}, overrides.ToolsRemove...)
	}
	if diags := Validate(out); diags.HasErrors() {
		return nil, diags
	}
	return out, nil
}

func getString(obj *jsonv.Object, key string) (string, bool) {
	v, _ := obj.Get(key)
	s, ok := v.(string)
	return s, ok
}
