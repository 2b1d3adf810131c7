package forms

import (
	"testing"
)

// BenchmarkBuildAndView measures what the panel does after every edit:
// re-create the form from the draft and render it at 160x48.
func BenchmarkBuildAndView(b *testing.B) {
	cases := []struct {
		name  string
		ctx   Context
		build func(Context) Form
	}{
		{"slot", testContext(b, slotDraft), func(c Context) Form { return NewSlotOptions(c, 1) }},
		{"policy", policyContext(b, policyDraft), func(c Context) Form { return NewPolicy(c, "tools") }},
		{"regex", testContext(b, regexDraft), func(c Context) Form { return NewRegex(c) }},
		{"params", testContext(b, paramsV2), func(c Context) Form { return NewParameters(c) }},
		{"context", testContext(b, contextDraft), func(c Context) Form { return NewContextOptions(c) }},
		{"bindings", bindingsContext(b, bindingsDraft), func(c Context) Form { return NewBindings(c) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = sizedView(c.build(c.ctx), 160, 48)
			}
		})
	}
}
