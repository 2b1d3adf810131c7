package forms

// NewSlotOptions edits the options object of the slot item at
// items[itemIndex]: the slot kind's known options as typed fields, unknown
// keys as raw JSON.
func NewSlotOptions(ctx Context, itemIndex int, opts ...Option) Form {
	return newSlotOptions(ctx, itemIndex, applyOptions(opts))
}

// NewParameters edits `parameters` (v2 Presets, name → JSON value) or
// `variables` (v1, name → string) with add, rename and delete.
func NewParameters(ctx Context, opts ...Option) Form {
	return newParameters(ctx, applyOptions(opts))
}

// NewPolicy edits the resource policy `tools` or `skills` (field): mode
// allow/deny/none, the pattern list, a picker of known tools with a match
// preview, and `initial` (tools only).
func NewPolicy(ctx Context, field string, opts ...Option) Form {
	return newPolicy(ctx, field, applyOptions(opts))
}

// NewRegex edits `regex.rules`: a rule list and a detail editor with a live
// compile check of each pattern.
func NewRegex(ctx Context, opts ...Option) Form {
	return newRegex(ctx, applyOptions(opts))
}

// NewContextOptions edits `context` (allowDuplicateChatHistory,
// mergeConsecutiveRoles, mergeSeparator).
func NewContextOptions(ctx Context, opts ...Option) Form {
	return newContextOptions(ctx, applyOptions(opts))
}

// NewBindings edits `capabilities` (capability bindings) and shows each
// binding's source capability next to its effective values.
func NewBindings(ctx Context, opts ...Option) Form {
	return newBindings(ctx, applyOptions(opts))
}
