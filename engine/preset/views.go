package preset

import "github.com/forgebench/forgebench/engine/jsonv"

// IsEnabled reports whether the item is enabled (only "enabled": false disables).
func (it *Item) IsEnabled() bool { return it.Enabled == nil || *it.Enabled }

// DisplayName is the item name when present, else its id.
func (it *Item) DisplayName() string {
	if it.Name != nil {
		return *it.Name
	}
	return it.ID
}

// EffectiveMode is the mode the compiler uses (ModeReplace when unset).
func (s *Stack) EffectiveMode() Mode {
	if s.Mode == ModeUnset {
		return ModeReplace
	}
	return s.Mode
}

// DefaultsView returns the typed defaults; wrong-typed values read as unset.
func (s *Stack) DefaultsView() Defaults {
	var d Defaults
	if s.Defaults == nil {
		return d
	}
	d.SyntheticMessagesVisible, _ = get(s.Defaults, "syntheticMessagesVisible").(bool)
	d.UnresolvedMacroPolicy, _ = getString(s.Defaults, "unresolvedMacroPolicy")
	return d
}

// ContextView returns the typed context options with pi-forge's defaults
// (MergeSeparator "\n\n"); wrong-typed values read as unset.
func (s *Stack) ContextView() ContextOptions {
	c := ContextOptions{MergeSeparator: "\n\n"}
	if s.Context == nil {
		return c
	}
	c.AllowDuplicateChatHistory = get(s.Context, "allowDuplicateChatHistory") == true
	c.MergeConsecutiveRoles = get(s.Context, "mergeConsecutiveRoles") == true
	if sep, ok := getString(s.Context, "mergeSeparator"); ok {
		c.MergeSeparator = sep
	}
	return c
}

// TemplateParameters is the value of env.parameters for forge-v1 (§8.5): the
// parameters of a v2 stack, else the variables; a fresh object, never nil.
func (s *Stack) TemplateParameters() *jsonv.Object {
	src := s.Variables
	if s.SchemaVersion == 2 {
		src = s.Parameters
	}
	if src == nil {
		return jsonv.NewObject()
	}
	return src.Clone()
}

// OptionBool reads a boolean slot option; ok is false when absent or not a boolean.
func (it *Item) OptionBool(key string) (value, ok bool) {
	if it.Options == nil {
		return false, false
	}
	value, ok = get(it.Options, key).(bool)
	return value, ok
}

// Option returns a raw slot option value and whether it is present.
func (it *Item) Option(key string) (any, bool) {
	if it.Options == nil {
		return nil, false
	}
	return it.Options.Get(key)
}
