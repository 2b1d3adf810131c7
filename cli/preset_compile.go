package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// compileInputs are the flags shared by `preset compile` and `preset preview`.
type compileInputs struct {
	Runtime  string `help:"Runtime JSON {options, model?, latestUserMessage?, now} to compile against, instead of this workspace's Pi 1.6.0 defaults." placeholder:"FILE"`
	Messages string `help:"JSON array of Pi agent messages: the conversation the preset's chat history sees." placeholder:"FILE"`
	Base     string `help:"Text file holding Pi's base system prompt (default: the prompt Pi 1.6.0 builds for this workspace: SYSTEM.md, APPEND_SYSTEM.md, context files, cwd)." placeholder:"FILE"`
	Macros   string `help:"JSON file of extension macro values {name: string}. forgebench cannot run TypeScript extension modules, so their values are supplied here." placeholder:"FILE"`
	Slots    string `help:"JSON file of custom slot outputs {slot: text}: a slot an extension module registers renders this text instead of pi-forge's \"Unsupported slot\" warning (forgebench cannot run the module; the value is for this preview only)." placeholder:"FILE"`
	Model    string `help:"Active model as provider/model-id (ignored with --runtime or --session)." placeholder:"PROVIDER/ID"`
	Session  string `help:"Compile at a point of a real Pi session (a file, a session id or a unique prefix of one): its context is the history, and (for Pi >= 0.86 sessions) the runtime and base prompt are the ones recorded there." placeholder:"SESSION" predictor:"session"`
	Leaf     string `help:"Entry of --session to compile at (default: the last entry)." placeholder:"ID" predictor:"entry"`
}

// compileJob is everything one compilation needs, loaded from disk.
type compileJob struct {
	stack      *preset.Stack
	presetDiag preset.Diagnostics
	runtime    compile.Runtime
	base       string
	messages   []any
	macros     map[string]string
	source     string // where runtime and base came from, for humans
	sourceJSON string // the same in English: a JSON value is the same in every language
	// session and index are --session and its entry (nil, -1 without);
	// fromSession is true when the messages are that entry's context.
	session     *session.Session
	index       int
	fromSession bool
}

// load reads the preset and builds what it compiles against: the run
// context at --session/--leaf (replay.RunContextAt, as the Presets panel
// builds it) or Pi's defaults for the workspace, then the --runtime,
// --base and --messages overrides.
func (in compileInputs) load(g *Globals, file string) (*compileJob, error) {
	raw, basename, _, err := g.presetArg(file)
	if err != nil {
		return nil, err
	}
	job := &compileJob{index: -1}
	job.stack, job.presetDiag = preset.Parse(raw, basename)
	if job.macros, err = readMacros(in.Macros); err != nil {
		return nil, inputFailed(err)
	}
	slots, err := readCustomSlots(in.Slots)
	if err != nil {
		return nil, inputFailed(err)
	}
	model, err := parseModelFlag(in.Model)
	if err != nil {
		return nil, fail(exitUsage, "%v", err)
	}
	var s *session.Session
	index := -1
	var cat *catalog.Catalog
	if in.Session != "" {
		path, err := g.namedSession(in.Session, "--session", optionalSession)
		if err != nil {
			return nil, err
		}
		if s, index, err = openAt(path, in.Leaf); err != nil {
			return nil, err
		}
		if cat, err = g.modelCatalog(); err != nil {
			return nil, err
		}
	} else if in.Leaf != "" {
		return nil, failErr(exitUsage, i18n.Errorf("--leaf needs --session"))
	}
	var defaults replay.Defaults
	var fresh compile.ToolSelection
	if in.Runtime == "" || in.Base == "" { // both flags given: the defaults are not needed
		// What a fresh session would start with: Pi's runtime with the
		// Preset's tool policy (tools.initial, a selective allow) applied.
		defaults = func() (compile.Runtime, string, error) {
			ws, err := g.workspace()
			if err != nil {
				return compile.Runtime{}, "", err
			}
			rt, base, sel, err := resources.PiFreshSessionRuntime(ws, model, time.Now(), job.stack.Tools)
			fresh = sel
			return rt, base, err
		}
	}
	rc, err := replay.RunContextAt(s, index, cat, time.Local, defaults)
	if err != nil {
		return nil, err
	}
	job.runtime, job.base = rc.Runtime, rc.Base
	// Each part is written in a language when it is joined: the text
	// output speaks the user's, the JSON's "source" value stays English.
	sources := []sourcePart{nil, nil}
	switch {
	case rc.FromSession:
		sources = []sourcePart{literal("runtime: " + rc.Source), translated(i18n.Mark("base: the prompt in force there"))}
	case s != nil:
		sources[0] = literal("runtime: " + rc.Source)
	}
	if !rc.FromSession && defaults != nil {
		ws, err := g.workspace()
		if err != nil {
			return nil, err
		}
		if sources[0] == nil {
			sources[0] = translated(i18n.Mark("runtime: a fresh Pi 1.6.0 session in %s"), ws.Cwd)
		}
		runtime, tools := sources[0], fresh.Tools
		sources[0] = func(l i18n.Lang) string {
			return runtime(l) + i18n.In(l, " (tools %s from %s)", toolListIn(l, tools), fresh.Source)
		}
		sources[1] = translated(i18n.Mark("base: Pi 1.6.0 default prompt for %s"), ws.Cwd)
	}
	if in.Runtime != "" {
		data, err := readInput(in.Runtime)
		if err != nil {
			return nil, inputFailed(err)
		}
		if job.runtime, err = compile.ParseRuntimeJSON(data); err != nil {
			return nil, fail(exitUsage, "%s: %v", in.Runtime, err)
		}
		sources[0] = literal("runtime: " + in.Runtime)
	}
	if in.Base != "" {
		data, err := readInput(in.Base)
		if err != nil {
			return nil, inputFailed(err)
		}
		job.base = string(data)
		sources[1] = literal("base: " + in.Base)
	}
	if in.Messages != "" || s == nil {
		if job.messages, err = readMessages(in.Messages); err != nil {
			return nil, inputFailed(err)
		}
		sources = append(sources, literal("messages: "+orDefault(in.Messages, "none")))
	} else {
		job.messages, job.fromSession = rc.Messages, true
		sources = append(sources, translated(i18n.Mark("messages: the context at the session entry")))
	}
	if slots != nil {
		// A supplied slot is one a module registers: pi-forge's validation
		// would not call it unsupported either.
		job.runtime.CustomSlots = slots
		job.presetDiag = slices.DeleteFunc(job.presetDiag, func(d preset.Diagnostic) bool {
			name, ok := strings.CutPrefix(d.Message, "Unsupported slot: ")
			_, supplied := slots[name]
			return ok && supplied
		})
		sources = append(sources, translated(i18n.Mark("custom slots: %s"), in.Slots))
	}
	job.source, job.sourceJSON = joinSources(sources, i18n.Current()), joinSources(sources, i18n.English)
	job.session, job.index = s, index
	return job, nil
}

// toolListText is a tool list for humans: "read, ls" or "(none)".
func toolListText(tools []string) string { return toolListIn(i18n.Current(), tools) }

// toolListIn is toolListText in the language l.
func toolListIn(l i18n.Lang, tools []string) string {
	if len(tools) == 0 {
		return i18n.In(l, "(none)")
	}
	return strings.Join(tools, ", ")
}

// sourcePart is one part of a compile's source line, written in a
// language: the text output's in the user's, the JSON's in English.
type sourcePart func(i18n.Lang) string

// literal is a source part that is the same in every language (a path, a
// session's own description).
func literal(s string) sourcePart { return func(i18n.Lang) string { return s } }

// translated is a source part from the catalog.
func translated(key string, args ...any) sourcePart {
	return func(l i18n.Lang) string { return i18n.In(l, key, args...) }
}

// joinSources writes the parts in l, separated by "; " (a part not set is
// empty, as the line always had it).
func joinSources(parts []sourcePart, l i18n.Lang) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		if p != nil {
			out[i] = p(l)
		}
	}
	return strings.Join(out, "; ")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// PresetCompileCmd compiles a preset into a system prompt and messages.
type PresetCompileCmd struct {
	File    string `arg:"" optional:"" help:"Preset: a file path, or a selector (id, project:id, global:id) resolved in this workspace." predictor:"preset"`
	Request string `help:"Compile a JSON request {stack, runtime:{options, model?, latestUserMessage?, now}, base, messages, macros?, slots?} from FILE or - (stdin) and print {system:{systemPrompt,diagnostics}, messages:{messages,messageSources,diagnostics}}; exits 0 whatever the diagnostics." placeholder:"FILE|-"`
	JSON    bool   `name:"json" help:"Print the result as JSON (the --request output shape)."`
	compileInputs
}

// Run compiles; the everyday form exits 1 when any error diagnostic exists.
func (c *PresetCompileCmd) Run(g *Globals) error {
	if c.Request != "" {
		if c.File != "" {
			return failErr(exitUsage, i18n.Errorf("give either --request or a preset FILE, not both"))
		}
		data, err := readInput(c.Request)
		if err != nil {
			return inputFailed(err)
		}
		out, err := compile.CompileRequestJSON(data)
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		_, err = g.stdout.Write(out)
		return err
	}
	if c.File == "" {
		return failErr(exitUsage, i18n.Errorf("give a preset FILE or --request FILE|-"))
	}
	job, err := c.load(g, c.File)
	if err != nil {
		return err
	}
	result := compile.Compile(job.stack, job.runtime, job.base, job.messages, job.macros)
	if c.JSON {
		if _, err := io.WriteString(g.stdout, jsonv.Stringify(compile.ResultJSON(result))+"\n"); err != nil {
			return err
		}
	} else {
		writeCompiled(g.stdout, result)
	}
	return reportDiagnostics(g.stderr, job, result)
}

// writeCompiled prints the compiled request for reading; counts are of the
// exact text, the text itself is sanitised (--json prints it exactly).
func writeCompiled(w io.Writer, r compile.Result) {
	prompt := r.System.SystemPrompt
	fmt.Fprint(w, i18n.T("── system prompt · %d chars · ~%d tokens ──\n%s\n", jsonv.UTF16Len(prompt), compile.EstimateTokens(prompt), sanitize.Text(prompt)))
	fmt.Fprint(w, i18n.T("\n── messages · %d ──\n", len(r.Messages.Messages)))
	for i, m := range r.Messages.Messages {
		text := compile.PreviewText(m)
		src := describeSource(r.Messages.MessageSources, i)
		fmt.Fprintf(w, "#%d %s · %s · ~%d tokens\n%s\n", i+1, sanitize.Line(messageRole(m)), sanitize.Line(src), compile.EstimateTokens(text), indent(sanitize.Text(text), "  ")) //i18n:raw numbers and names; "tokens" stays in every language (glossary)
	}
}

// reportDiagnostics prints every diagnostic to stderr and turns errors into
// exit code 1.
func reportDiagnostics(w io.Writer, job *compileJob, r compile.Result) error {
	fmt.Fprintln(w, job.source)
	errors := 0
	for _, group := range []struct {
		phase string
		diags []preset.Diagnostic
	}{{"preset", job.presetDiag}, {"system", r.System.Diagnostics}, {"messages", r.Messages.Diagnostics}} {
		for _, d := range group.diags {
			where := ""
			if d.ItemID != "" {
				where = " [" + d.ItemID + "]"
			}
			fmt.Fprintf(w, "%s %s%s: %s\n", group.phase, d.Level, sanitize.Line(where), sanitize.Line(d.Message))
			if d.Level == preset.LevelError {
				errors++
			}
		}
	}
	if errors > 0 {
		return failErr(exitFailed, i18n.Errorf("%d error diagnostic(s)", errors))
	}
	return nil
}

func describeSource(sources []compile.MessageSource, i int) string {
	if i >= len(sources) {
		return i18n.T("unknown source")
	}
	s := sources[i]
	switch s.Kind {
	case compile.SourceChatHistory:
		return i18n.T("chat history %d/%d via %s", s.HistoryIndex, s.HistoryCount, itemLabel(s.ItemID, s.ItemName))
	case compile.SourceImplicitHistory:
		return i18n.T("implicit history %d/%d", s.HistoryIndex, s.HistoryCount)
	}
	label := i18n.T("item %s", itemLabel(s.ItemID, s.ItemName))
	if len(s.MergedItems) > 1 {
		names := make([]string, len(s.MergedItems))
		for j, m := range s.MergedItems {
			names[j] = itemLabel(m.ItemID, m.ItemName)
		}
		label = i18n.T("merged items %s", strings.Join(names, " + "))
	}
	return label
}

func itemLabel(id string, name *string) string {
	if name != nil && *name != "" && *name != id {
		return fmt.Sprintf("%s (%q)", id, *name)
	}
	return id
}

func messageRole(m any) string {
	if obj, ok := m.(*jsonv.Object); ok {
		if role, ok := obj.Get("role"); ok {
			if s, ok := role.(string); ok {
				return s
			}
		}
	}
	return "?"
}

func indent(text, prefix string) string {
	if text == "" {
		return prefix + i18n.T("(empty)")
	}
	return prefix + strings.ReplaceAll(text, "\n", "\n"+prefix)
}
