package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/session/replay"
)

// whatIfFlags are preset preview's what-if flags: compile without some
// items or tools and say what that saves and where the cache breaks.
type whatIfFlags struct {
	Without     []string `name:"without" sep:"none" help:"What-if: preview without this item (its id; repeat the flag for more) and print the token delta and where the cache boundary moves. Nothing is saved." placeholder:"ITEM"`
	WithoutTool []string `name:"without-tool" sep:"none" help:"What-if: preview without this tool (its name; repeat the flag for more): its definition (recorded in --session) leaves the request and the runtime's tool list. Nothing is saved." placeholder:"NAME"`
}

// active reports whether a what-if was asked for.
func (f whatIfFlags) active() bool { return len(f.Without) > 0 || len(f.WithoutTool) > 0 }

// whatIfRun is a preview before and after the change.
type whatIfRun struct {
	flags  whatIfFlags
	before []compare.Piece
	result compare.WhatIf
	// toolsKnown is false when no session recorded the tool definitions
	// (their tokens are then not counted).
	toolsKnown bool
}

// apply checks the names against the job, compiles the job as it is
// (before) and changes the job in place into the what-if (its stack
// without the items, its runtime without the tools). It returns the
// before pieces and the tool declarations of both sides.
func (f whatIfFlags) apply(job *compileJob) (before []compare.Piece, toolsAfter []any, toolsKnown bool, err error) {
	ids := map[string]bool{}
	for _, it := range job.stack.Items {
		ids[it.ID] = true
	}
	for _, id := range f.Without {
		if !ids[id] {
			known := make([]string, 0, len(job.stack.Items))
			for _, it := range job.stack.Items {
				known = append(known, it.ID)
			}
			return nil, nil, false, failErr(exitUsage, i18n.Errorf("--without %s: the Preset has no such item (items: %s)", sanitize.Line(id), sanitize.Line(strings.Join(known, ", "))))
		}
	}
	var tools []any
	if job.session != nil && job.index >= 0 {
		sp, err := replay.SystemPromptAt(job.session, job.index)
		if err != nil {
			return nil, nil, false, err
		}
		// The request carries the declarations the Preset's tool policy
		// allows, as replay builds a Preset's request.
		allowed := map[string]bool{}
		for _, name := range preset.ApplyResourcePolicy(sp.ToolNames(), job.stack.Tools) {
			allowed[name] = true
		}
		for _, t := range sp.Tools {
			if o, ok := t.(*jsonv.Object); ok {
				if name, _ := o.Get("name"); allowed[jsonv.ToString(name)] {
					tools = append(tools, t)
				}
			}
		}
		toolsKnown = len(sp.Tools) > 0
	}
	declared := map[string]bool{}
	for _, t := range tools {
		if o, ok := t.(*jsonv.Object); ok {
			name, _ := o.Get("name")
			if s, ok := name.(string); ok {
				declared[s] = true
			}
		}
	}
	for _, name := range f.WithoutTool {
		if !declared[name] && !slices.Contains(job.runtime.Options.SelectedTools, name) {
			return nil, nil, false, failErr(exitUsage, i18n.Errorf("--without-tool %s: no such tool in force (tools: %s)", sanitize.Line(name), sanitize.Line(strings.Join(job.runtime.Options.SelectedTools, ", "))))
		}
	}
	before = compare.PreviewPieces(tools, compile.Preview(job.stack, job.runtime, job.base, job.messages, job.macros))
	for _, t := range tools {
		o, _ := t.(*jsonv.Object)
		name := ""
		if o != nil {
			v, _ := o.Get("name")
			name, _ = v.(string)
		}
		if !slices.Contains(f.WithoutTool, name) {
			toolsAfter = append(toolsAfter, t)
		}
	}
	stack := *job.stack
	stack.Items = slices.DeleteFunc(slices.Clone(job.stack.Items), func(it preset.Item) bool { return slices.Contains(f.Without, it.ID) })
	job.stack = &stack
	opts := job.runtime.Options
	opts.SelectedTools = slices.DeleteFunc(slices.Clone(opts.SelectedTools), func(n string) bool { return slices.Contains(f.WithoutTool, n) })
	job.runtime.Options = opts
	return before, toolsAfter, toolsKnown, nil
}

// whatIfJSON is the "whatIf" member of preset preview --json:
// {without, withoutTools, tokensBefore, tokensAfter, delta, prefixTokens,
// boundary: {kind, label, ref} | null, toolDefinitionsCounted}.
func whatIfJSON(w whatIfRun) *jsonv.Object {
	o := jsonv.NewObject()
	list := func(xs []string) []any {
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = x
		}
		return out
	}
	o.Set("without", list(w.flags.Without))
	o.Set("withoutTools", list(w.flags.WithoutTool))
	o.Set("tokensBefore", float64(w.result.TokensBefore))
	o.Set("tokensAfter", float64(w.result.TokensAfter))
	o.Set("delta", float64(w.result.Delta))
	o.Set("prefixTokens", float64(w.result.PrefixTokens))
	if w.result.Changed {
		b := jsonv.NewObject()
		b.Set("kind", w.result.Boundary.Kind)
		b.Set("label", w.result.Boundary.Label)
		if w.result.Boundary.Ref != "" {
			b.Set("ref", w.result.Boundary.Ref)
		} else {
			b.Set("ref", nil)
		}
		o.Set("boundary", b)
	} else {
		o.Set("boundary", nil)
	}
	o.Set("toolDefinitionsCounted", w.toolsKnown)
	return o
}

// writeWhatIf prints the what-if after the preview.
func writeWhatIf(out io.Writer, w whatIfRun) {
	var what []string
	if len(w.flags.Without) > 0 {
		what = append(what, i18n.T("without item(s) %s", strings.Join(w.flags.Without, ", ")))
	}
	if len(w.flags.WithoutTool) > 0 {
		what = append(what, i18n.T("without tool(s) %s", strings.Join(w.flags.WithoutTool, ", ")))
	}
	r := w.result
	fmt.Fprint(out, i18n.T("\nWHAT-IF · %s · nothing saved\n", sanitize.Line(strings.Join(what, " · "))))
	sign := "+"
	if r.Delta < 0 {
		sign = "−"
	}
	fmt.Fprint(out, i18n.T("  tokens  ~%s → ~%s (%s%s)\n", count(float64(r.TokensBefore)), count(float64(r.TokensAfter)), sign, count(float64(abs(r.Delta)))))
	if !r.Changed {
		fmt.Fprintln(out, i18n.T("  cache   nothing changes: the request stays the same"))
	} else {
		label := r.Boundary.Label
		if r.Boundary.Ref != "" && r.Boundary.Ref != label {
			label += " (" + r.Boundary.Ref + ")"
		}
		fmt.Fprint(out, i18n.T("  cache   the boundary moves to %s %s: ~%s tokens before it stay cached, ~%s after it are sent uncached once\n",
			r.Boundary.Kind, sanitize.Clip(label, 60), count(float64(r.PrefixTokens)), count(float64(r.TokensAfter-r.PrefixTokens))))
	}
	if !w.toolsKnown {
		fmt.Fprintln(out, i18n.T("  (tool definitions not counted: they are recorded only in sessions; pass --session)"))
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
