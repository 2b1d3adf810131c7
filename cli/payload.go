package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// PayloadCmd groups the payload commands.
type PayloadCmd struct {
	Show PayloadShowCmd `cmd:"" help:"Show a captured payload, a session entry or a preset at an entry as a request."`
	Diff PayloadDiffCmd `cmd:"" help:"Diff two requests: blocks, lines, cache boundary and token deltas."`
}

// PayloadShowCmd shows one request.
type PayloadShowCmd struct {
	Ref  string `arg:"" name:"ref" help:"The request: FILE (a saved payload or turn snapshot), session:FILE#ENTRY (the request for ENTRY rebuilt from a session, given as a file, an id or an id prefix; #ENTRY defaults to the last entry) or preset:SELECTOR@FILE#ENTRY (a preset compiled at ENTRY)."`
	JSON bool   `name:"json" help:"Print {ref, kind, turn, …}: the turn snapshot, and for files the recovery report and redactions, for session and preset references the rebuilt request."`
}

// PayloadDiffCmd diffs two requests.
type PayloadDiffCmd struct {
	A              string `arg:"" name:"a" help:"The earlier request: FILE (a saved payload or turn snapshot), session:FILE#ENTRY (the request for ENTRY rebuilt from a session, given as a file, an id or an id prefix; #ENTRY defaults to the last entry) or preset:SELECTOR@FILE#ENTRY (a preset compiled at ENTRY)."`
	B              string `arg:"" name:"b" help:"The later request, same forms."`
	JSON           bool   `name:"json" help:"Print pi-forge's diffTurns result {blocks, prefixTokens, prefixRatio, deltaTokens, summary}, plus \"cause\" when the data names what broke the cache."`
	FailOnChange   bool   `name:"fail-on-change" help:"Exit 1 when any block changed."`
	MaxTokenGrowth *int   `name:"max-token-growth" help:"Exit 1 when the request grew by more than N tokens (chars/4)." placeholder:"N"`
	BlocksOnly     bool   `name:"blocks-only" help:"Leave out the line diffs of modified blocks (human output)."`
}

// resolver is the services' reference resolver (the one the Payloads
// panel resolves with) with the CLI's ways: a session file that is not a
// Pi session is a usage error and a FIFO or device refused, a preset file
// is read as a FILE argument, the library reports its notices, and a
// preset with error diagnostics is noted on stderr (it is compiled anyway,
// as pi-forge's preview does).
func (g *Globals) resolver() (*replay.Resolver, error) {
	if _, err := g.modelCatalog(); err != nil { // reports models.json's problems
		return nil, err
	}
	return g.svc.Resolver(services.ResolverOptions{
		ResolveSession: func(arg string) (string, error) {
			return g.namedSession(arg, "session:FILE", requiredSession) //i18n:raw the argument's form, as the help writes it
		},
		Open: openRefSession,
		ReadPresetFile: func(path string) ([]byte, error) {
			raw, err := readInput(path) // a FIFO or device is refused (exit 4), never opened
			if err != nil {
				return nil, inputFailed(err)
			}
			return raw, nil
		},
		Library:      g.loadLibrary,
		PresetErrors: g.presetNotes,
	}), nil
}

// openRefSession opens the session file of a reference (the resolver
// named it with namedSession). A file that is not a Pi session is a usage
// error; a FIFO or device is refused.
func openRefSession(path string) (*session.Session, error) {
	s, err := session.Open(path)
	switch {
	case errors.Is(err, session.ErrNotSession), errors.Is(err, session.ErrEmptySession):
		return nil, fail(exitUsage, "%v", err)
	case errors.Is(err, session.ErrNotRegular):
		return nil, fail(exitRefused, "%v", err)
	}
	return s, err
}

func (g *Globals) presetNotes(name string, n int) {
	if n > 0 {
		fmt.Fprint(g.stderr, i18n.T("forgebench: preset %s has %d error diagnostic(s); compiled anyway\n", name, n))
	}
}

// resolveRef parses and resolves one reference, mapping failures to exit
// codes: a malformed reference, a missing file or an unknown entry is a
// usage error; a FIFO or device given as a file is refused.
func resolveRef(rv *replay.Resolver, s string) (*replay.Resolved, error) {
	ref, err := replay.ParseRef(s)
	if err != nil {
		return nil, fail(exitUsage, "%v", err)
	}
	r, err := rv.Resolve(ref)
	var ee *exitError
	var pe *services.PresetPathError
	var re *resources.Error
	switch {
	case err == nil:
		return r, nil
	case errors.As(err, &ee):
		return nil, err
	case errors.As(err, &pe): // a preset written as a path that cannot be read
		return nil, fail(exitUsage, "%v", pe)
	case errors.As(err, &re): // a preset selector the library refused
		return nil, libraryError(re)
	case errors.Is(err, session.ErrNotRegular):
		return nil, fail(exitRefused, "%v", err) // a FIFO or device is refused, as the session commands refuse one
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, session.ErrUnknownEntry), errors.Is(err, session.ErrPayloadTooLarge),
		errors.Is(err, session.ErrNotPayloadFile):
		return nil, fail(exitUsage, "%v", err)
	}
	return nil, err
}

// Run prints one request.
func (c *PayloadShowCmd) Run(g *Globals) error {
	rv, err := g.resolver()
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(g.stdout, 64<<10)
	if !c.JSON {
		// A saved request object is shown as it is read, block by block:
		// a capture of two million fields is a file, not a turn in memory.
		if ref, err := replay.ParseRef(c.Ref); err == nil && ref.Kind == replay.RefFile {
			if ps := session.StreamPayloadFile(ref.Path); ps != nil {
				writeShowStream(w, ref, ps)
				return w.Flush()
			}
		}
	}
	r, err := resolveRef(rv, c.Ref)
	if err != nil {
		return err
	}
	if c.JSON {
		return printCompact(g, showJSON(r))
	}
	writeShow(w, r)
	return w.Flush()
}

// Run diffs two requests and applies the gates.
func (c *PayloadDiffCmd) Run(g *Globals) error {
	if c.MaxTokenGrowth != nil && *c.MaxTokenGrowth < 0 {
		return failErr(exitUsage, i18n.Errorf("--max-token-growth must be 0 or more"))
	}
	rv, err := g.resolver()
	if err != nil {
		return err
	}
	a, err := resolveRef(rv, c.A)
	if err != nil {
		return err
	}
	b, err := resolveRef(rv, c.B)
	if err != nil {
		return err
	}
	d := turndiff.DiffTurns(&a.Turn.Turn, &b.Turn.Turn)
	cause := replay.ExplainDiff(a, b, &d)
	if c.JSON {
		o := turndiff.DiffJSON(&d)
		if cause != nil {
			o.Set("cause", turndiff.CauseJSON(cause))
		}
		if err := printCompact(g, o); err != nil {
			return err
		}
	} else {
		writeDiff(g.stdout, a, b, &d, cause, !c.BlocksOnly)
	}
	var failed []string
	if c.FailOnChange && d.Summary.ChangedBlocks > 0 {
		failed = append(failed, i18n.T("%d block(s) changed (--fail-on-change)", d.Summary.ChangedBlocks))
	}
	if c.MaxTokenGrowth != nil && d.DeltaTokens > *c.MaxTokenGrowth {
		failed = append(failed, i18n.T("the request grew by %d tokens, more than %d (--max-token-growth)", d.DeltaTokens, *c.MaxTokenGrowth))
	}
	if len(failed) > 0 {
		for _, f := range failed[1:] {
			fmt.Fprintln(g.stderr, "forgebench:", f)
		}
		return fail(exitFailed, "%s", failed[0])
	}
	return nil
}

// printCompact prints one JSON document as JSON.stringify does (no
// indentation), so --json output is byte-compatible with pi-forge's.
func printCompact(g *Globals, v any) error {
	_, err := g.stdout.Write([]byte(jsonv.Stringify(v) + "\n"))
	return err
}

// showJSON is `payload show --json`: {ref, kind, turn, approxTokens, …}
// with "file" (path, kind, valid, chars, recovery?, losses) for files and
// "request" (entry, contextEntry, forAssistant, preset?, inferred,
// payload, usage?) for session and preset references; preset is the
// Preset that compiled the request, inferred what the rebuild assumed.
func showJSON(r *replay.Resolved) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("ref", r.Ref.Raw)
	o.Set("kind", r.Ref.Kind)
	o.Set("turn", turndiff.TurnJSON(&r.Turn.Turn))
	o.Set("approxTokens", float64(r.Turn.Turn.ApproxTokens()))
	if f := r.File; f != nil {
		fo := jsonv.NewObject()
		fo.Set("path", f.Path)
		fo.Set("kind", f.Kind)
		fo.Set("valid", f.Valid)
		fo.Set("chars", float64(jsonv.UTF16Len(f.Text)))
		if f.TurnError != "" {
			fo.Set("turnError", f.TurnError)
		}
		if f.Recovery != nil {
			fo.Set("recovery", recoveryJSON(f))
		}
		losses := make([]any, 0, len(f.Losses))
		for _, l := range f.Losses {
			lo := jsonv.NewObject()
			lo.Set("kind", l.Kind)
			lo.Set("path", l.Path)
			if l.Count > 0 {
				lo.Set("count", float64(l.Count))
			}
			losses = append(losses, lo)
		}
		fo.Set("losses", losses)
		o.Set("file", fo)
	}
	if q := r.Request; q != nil {
		ro := jsonv.NewObject()
		ro.Set("entry", r.Session.Entries[r.Index].ID)
		var ctx any
		if q.ContextIndex >= 0 {
			ctx = r.Session.Entries[q.ContextIndex].ID
		}
		ro.Set("contextEntry", ctx)
		ro.Set("forAssistant", q.ForAssistant)
		if q.PresetID != "" {
			ro.Set("preset", q.PresetID)
		}
		inferred := make([]any, len(q.Inferred))
		for i, note := range q.Inferred {
			inferred[i] = note
		}
		ro.Set("inferred", inferred)
		ro.Set("payload", q.Payload)
		if q.Usage != nil {
			uses, _ := turndiff.CacheSeries([]turndiff.Usage{*q.Usage})
			ro.Set("usage", turndiff.CacheUseJSON(&uses[0]))
		}
		o.Set("request", ro)
	}
	return o
}

func recoveryJSON(f *session.PayloadFile) *jsonv.Object {
	rec := f.Recovery
	o := jsonv.NewObject()
	o.Set("truncationNote", rec.Noted)
	o.Set("keptChars", float64(rec.KeptChars))
	fields := make([]any, len(rec.Fields))
	for i, k := range rec.Fields {
		fields[i] = k
	}
	o.Set("fields", fields)
	if rec.CutField != "" {
		o.Set("cutField", rec.CutField)
	} else {
		o.Set("cutField", nil)
	}
	o.Set("messages", float64(rec.Messages))
	if cm := rec.CutMessage; cm != nil {
		co := jsonv.NewObject()
		co.Set("index", float64(cm.Index))
		co.Set("role", cm.Role)
		co.Set("textChars", float64(cm.TextChars))
		o.Set("cutMessage", co)
	} else {
		o.Set("cutMessage", nil)
	}
	if rec.SyntaxError != "" {
		o.Set("syntaxError", rec.SyntaxError)
	}
	if t, ok := f.RecoveredTurn(); ok {
		o.Set("recoveredTurn", turndiff.TurnJSON(&t))
	}
	return o
}
