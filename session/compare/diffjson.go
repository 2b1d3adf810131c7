package compare

import "github.com/forgebench/forgebench/engine/jsonv"

// Value is the JSON contract of `session diff --json`:
//
//	{"forkPoint","a":{"leaf","entries","messages","toolCalls","filesTouched",
//	 "tokens","cost","durationMs","models","lastText"},"b":{…}}
//
// forkPoint is the common ancestor's id (null when none); messages is
// {user, assistant, errors}; toolCalls {name: count} most called first;
// tokens {input, output, cacheRead, cacheWrite}; cost, durationMs and
// lastText are null when unknown.
func (d Diff) Value() *jsonv.Object {
	out := jsonv.NewObject()
	if d.HasForkPoint {
		out.Set("forkPoint", d.ForkPoint)
	} else {
		out.Set("forkPoint", nil)
	}
	out.Set("a", d.A.Value())
	out.Set("b", d.B.Value())
	return out
}

// Value is one side of Diff.Value.
func (s Summary) Value() *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("leaf", s.Leaf)
	o.Set("entries", float64(s.Entries))
	msgs := jsonv.NewObject()
	msgs.Set("user", float64(s.Messages.User))
	msgs.Set("assistant", float64(s.Messages.Assistant))
	msgs.Set("errors", float64(s.Messages.Errors))
	o.Set("messages", msgs)
	calls := jsonv.NewObject()
	for _, c := range s.ToolCalls {
		calls.Set(c.Name, float64(c.Count))
	}
	o.Set("toolCalls", calls)
	o.Set("filesTouched", stringValues(s.FilesTouched))
	tok := jsonv.NewObject()
	tok.Set("input", s.Tokens.Input)
	tok.Set("output", s.Tokens.Output)
	tok.Set("cacheRead", s.Tokens.CacheRead)
	tok.Set("cacheWrite", s.Tokens.CacheWrite)
	o.Set("tokens", tok)
	o.Set("cost", numberOrNull(s.Cost, s.CostKnown))
	o.Set("durationMs", numberOrNull(s.DurationMs, s.DurationKnown))
	o.Set("models", stringValues(s.Models))
	if s.HasLastText {
		o.Set("lastText", s.LastText)
	} else {
		o.Set("lastText", nil)
	}
	return o
}

func numberOrNull(v float64, known bool) any {
	if !known {
		return nil
	}
	return v
}

func stringValues(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Value is the JSON contract of `session composition --json`:
//
//	{"total","recordedInput","parts":[{"kind","label","ref","chars","tokens","share","inPrefix"}]}
//
// recordedInput is null when no usage was recorded (the tokens are then
// unscaled chars/4 estimates), ref null when nothing in particular
// produced the part, inPrefix null when the cached prefix is unknown.
func (c Composition) Value() *jsonv.Object {
	out := jsonv.NewObject()
	out.Set("total", float64(c.Total))
	out.Set("recordedInput", numberOrNull(float64(c.RecordedInput), c.HasRecorded))
	parts := make([]any, len(c.Parts))
	for i, p := range c.Parts {
		o := jsonv.NewObject()
		o.Set("kind", p.Kind)
		o.Set("label", p.Label)
		if p.Ref != "" {
			o.Set("ref", p.Ref)
		} else {
			o.Set("ref", nil)
		}
		o.Set("chars", float64(p.Chars))
		o.Set("tokens", float64(p.Tokens))
		o.Set("share", p.Share)
		if p.PrefixKnown {
			o.Set("inPrefix", p.InPrefix)
		} else {
			o.Set("inPrefix", nil)
		}
		parts[i] = o
	}
	out.Set("parts", parts)
	return out
}
