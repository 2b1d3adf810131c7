package forms

// Temporary constructors so the published API compiles; each is replaced by
// its real form in the following commits.

func newBindings(ctx Context, o options) Form   { return newContextOptions(ctx, o) }
