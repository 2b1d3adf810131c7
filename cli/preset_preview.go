package cli

import (
	"fmt"
	"io"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/compare"
)

// PresetPreviewCmd shows a compiled preset part by part.
type PresetPreviewCmd struct {
	File string `arg:"" help:"Preset: a file path, or a selector (id, project:id, global:id) resolved in this workspace." predictor:"preset"`
	JSON bool   `name:"json" help:"Print the parts as JSON."`
	compileInputs
	whatIfFlags
}

// Run prints every part of the system prompt and every message, labelled
// with the item that produced it and a chars/4 token estimate. At a
// session entry the messages carry pi-forge's capability updates where the
// request would (native system section or fallback user update, as the
// model in force dictates), as the Presets panel's preview does.
func (c *PresetPreviewCmd) Run(g *Globals) error {
	job, err := c.load(g, c.File)
	if err != nil {
		return err
	}
	delivery, err := c.capabilityDelivery(g, job)
	if err != nil {
		return err
	}
	var whatIf *whatIfRun
	var toolsAfter []any
	if c.whatIfFlags.active() {
		before, tools, known, err := c.whatIfFlags.apply(job)
		if err != nil {
			return err
		}
		whatIf, toolsAfter = &whatIfRun{flags: c.whatIfFlags, toolsKnown: known}, tools
		whatIf.before = before
	}
	pv := compile.Preview(job.stack, job.runtime, job.base, job.messages, job.macros)
	if whatIf != nil {
		whatIf.result = compare.Compare(whatIf.before, compare.PreviewPieces(toolsAfter, pv))
	}
	if delivery != nil {
		projected, perr := delivery.Project(pv)
		if perr != nil {
			fmt.Fprintln(g.stderr, "forgebench:", i18n.T("capability updates not shown: %s", sanitize.Line(perr.Error())))
		} else {
			pv = projected
		}
	}
	// Pi's System messages as pi-forge's dock shows them: the compiled
	// prompt in the leading one, empty ones hidden, tool declarations as
	// history (capability updates are kept as they are, as in the panel).
	pv = compile.PresentSystemMessages(pv)
	if c.JSON {
		doc := previewJSON(pv, job.sourceJSON)
		if whatIf != nil {
			doc.Set("whatIf", whatIfJSON(*whatIf))
		}
		_, err := io.WriteString(g.stdout, jsonv.Stringify(doc)+"\n")
		if err != nil {
			return err
		}
	} else {
		writePreview(g.stdout, pv)
		if whatIf != nil {
			writeWhatIf(g.stdout, *whatIf)
		}
	}
	return reportDiagnostics(g.stderr, job, pv.Result)
}

func writePreview(w io.Writer, pv compile.PreviewResult) {
	total := compile.EstimateTokens(pv.Result.System.SystemPrompt)
	fmt.Fprint(w, i18n.T("SYSTEM PROMPT · ~%d tokens\n", total))
	for _, p := range pv.System {
		if p.Kind == compile.PartSeparator {
			continue
		}
		fmt.Fprintf(w, "\n▸ %s · %s · ~%d tokens\n%s\n", p.Kind, sanitize.Line(p.Label), p.Tokens, indent(sanitize.Text(p.Text), "  ")) //i18n:raw numbers and names; "tokens" stays in every language (glossary)
	}
	msgTokens := 0
	for _, p := range pv.Messages {
		msgTokens += p.Tokens
	}
	hidden := ""
	if pv.HiddenSystem > 0 {
		hidden = i18n.T(" · %d empty System message(s) hidden", pv.HiddenSystem)
	}
	fmt.Fprint(w, i18n.T("\nMESSAGES · %d · ~%d tokens%s\n", len(pv.Messages), msgTokens, hidden))
	for i, p := range pv.Messages {
		fmt.Fprintf(w, "\n#%d %s · %s · ~%d tokens\n%s\n", i+1, sanitize.Line(p.Role), sanitize.Line(p.Label), p.Tokens, indent(sanitize.Text(p.Text), "  ")) //i18n:raw numbers and names; "tokens" stays in every language (glossary)
	}
}

func previewJSON(pv compile.PreviewResult, source string) *jsonv.Object {
	parts := func(list []compile.Part) []any {
		out := make([]any, 0, len(list))
		for _, p := range list {
			o := jsonv.NewObject()
			o.Set("kind", p.Kind)
			if p.ItemID != "" {
				o.Set("itemId", p.ItemID)
			}
			if p.ItemName != "" {
				o.Set("itemName", p.ItemName)
			}
			o.Set("label", p.Label)
			o.Set("role", p.Role)
			o.Set("tokens", float64(p.Tokens))
			o.Set("text", p.Text)
			if p.Message != nil {
				o.Set("message", p.Message)
			}
			if p.System != nil {
				o.Set("system", systemCardJSON(p.System))
			}
			out = append(out, o)
		}
		return out
	}
	root := jsonv.NewObject()
	root.Set("source", source)
	root.Set("systemPrompt", pv.Result.System.SystemPrompt)
	root.Set("systemTokens", float64(compile.EstimateTokens(pv.Result.System.SystemPrompt)))
	root.Set("system", parts(pv.System))
	root.Set("messages", parts(pv.Messages))
	root.Set("hiddenSystemMessages", float64(pv.HiddenSystem))
	root.Set("diagnostics", jsonv.NewObject())
	diags, _ := root.Get("diagnostics")
	diags.(*jsonv.Object).Set("system", compile.DiagnosticsJSON(pv.Result.System.Diagnostics))
	diags.(*jsonv.Object).Set("messages", compile.DiagnosticsJSON(pv.Result.Messages.Diagnostics))
	return root
}

// capabilityDelivery prepares the capability updates of the session entry
// the preview compiles at: the job's messages get a delivery marker where
// each stored anchor sits. nil when the messages are not a session's
// context; an unreadable capability history is said on stderr and the
// plain context previewed.
func (c *PresetPreviewCmd) capabilityDelivery(g *Globals, job *compileJob) (*capstate.PreviewDelivery, error) {
	if !job.fromSession || job.session == nil {
		return nil, nil
	}
	in, err := g.capabilityInputs()
	if err != nil {
		return nil, err
	}
	d, err := capstate.ForPreview(job.session, job.index, in)
	if err != nil {
		fmt.Fprintln(g.stderr, "forgebench:", i18n.T("capability updates not shown: %s", sanitize.Line(err.Error())))
		return nil, nil
	}
	job.messages = d.Messages
	return d, nil
}

// systemCardJSON is {leading, body, sections:[{name, value}], toolsAdded,
// toolsRemoved, toolsAreHistory: true}.
func systemCardJSON(c *compile.SystemCard) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("leading", c.Leading)
	o.Set("body", c.Body)
	sections := make([]any, 0, len(c.Sections))
	for _, s := range c.Sections {
		so := jsonv.NewObject()
		so.Set("name", s.Name)
		if s.Value != nil {
			so.Set("value", *s.Value)
		} else {
			so.Set("value", nil)
		}
		sections = append(sections, so)
	}
	o.Set("sections", sections)
	names := func(list []string) []any {
		out := make([]any, len(list))
		for i, n := range list {
			out[i] = n
		}
		return out
	}
	o.Set("toolsAdded", names(c.ToolsAdded))
	o.Set("toolsRemoved", names(c.ToolsRemoved))
	o.Set("toolsAreHistory", true)
	return o
}
