package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// SessionCmd groups the Pi session commands.
type SessionCmd struct {
	List        SessionListCmd        `cmd:"" help:"List sessions of the project (or all projects), newest activity first."`
	Show        SessionShowCmd        `cmd:"" help:"Load a session and print a summary."`
	Tree        SessionTreeCmd        `cmd:"" help:"Print the branch tree of a session."`
	Context     SessionContextCmd     `cmd:"" help:"Rebuild the model context at an entry, as Pi does (--as-sent: the request as the provider received it, pi-forge's rewrite included)."`
	Stats       SessionStatsCmd       `cmd:"" help:"Messages, tool calls, tokens and cost per session and branch."`
	Tail        SessionTailCmd        `cmd:"" help:"Follow a session file that Pi is writing."`
	Export      SessionExportCmd      `cmd:"" help:"Export a branch as Markdown or JSON."`
	Fork        SessionForkCmd        `cmd:"" help:"Write a new session from the path root→entry, exactly as Pi's /fork does, and print how to continue it in Pi."`
	Diff        SessionDiffCmd        `cmd:"" help:"Compare two branches (two leaves of a session, or a session and its fork) after their fork point."`
	Composition SessionCompositionCmd `cmd:"" help:"Split the request at an entry into system prompt parts, tool definitions, history, tool results, capability text and images, with tokens and the cached prefix."`
}

// openSessionWith loads a session file. A file that is not a Pi session
// (or a missing file) is a usage error; a FIFO, device or directory (also
// behind a symlink) is refused (exit 4) without being read; IO failures
// are plain errors.
func openSessionWith(path string, opt session.Options) (*session.Session, error) {
	s, err := session.OpenWithOptions(path, opt)
	switch {
	case err == nil:
		return s, nil
	case errors.Is(err, session.ErrNotSession), errors.Is(err, session.ErrEmptySession):
		return nil, fail(exitUsage, "%s: %v", path, err)
	case errors.Is(err, session.ErrNotRegular):
		return nil, fail(exitRefused, "%v", err)
	case errors.Is(err, fs.ErrNotExist):
		return nil, failErr(exitUsage, i18n.Errorf("no such session: %s", sanitize.Line(path)))
	}
	return nil, err
}

// openSession loads a session file with every line Pi accepts: the
// context and compile paths, which must match Pi.
func openSession(path string) (*session.Session, error) {
	return openSessionWith(path, session.Options{})
}

// leafIndex resolves --leaf ("" = Pi's default leaf, the last entry).
func leafIndex(s *session.Session, leaf string) (int, error) {
	if leaf == "" {
		return s.LeafIndex(), nil
	}
	i, ok := s.IndexOf(leaf)
	if !ok {
		return 0, failErr(exitUsage, i18n.Errorf("no entry %q in %s", leaf, s.Path))
	}
	return i, nil
}

// openAt opens a session file (every line Pi accepts) and resolves --leaf.
func openAt(path, leaf string) (*session.Session, int, error) {
	s, err := openSession(path)
	if err != nil {
		return nil, 0, err
	}
	i, err := leafIndex(s, leaf)
	if err != nil {
		return nil, 0, err
	}
	return s, i, nil
}

// openForDisplay loads a session for the display commands (show, tree,
// stats, export): a line above session.DisplayMaxLineBytes costs one scan
// and is skipped. What the reader skipped or noticed goes to stderr.
func (g *Globals) openForDisplay(path, leaf string) (*session.Session, int, error) {
	s, err := openSessionWith(path, session.DisplayOptions())
	if err != nil {
		return nil, 0, err
	}
	g.sessionNotes(s, s.LoadNotes())
	i, err := leafIndex(s, leaf)
	if err != nil {
		return nil, 0, err
	}
	return s, i, nil
}

// sessionNotes prints notes about a session on stderr, one per line,
// prefixed with the file's name.
func (g *Globals) sessionNotes(s *session.Session, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(g.stderr, "%s: %s\n", sanitize.Line(filepath.Base(s.Path)), sanitize.Line(n))
	}
}

// leafHelp ends the help of every --leaf flag: the ids of v1 files. It is
// kong's ${leaf_help} in English and translated where help is printed in
// another language (interpolateHelp).
var leafHelp = i18n.Mark(" Entries of v1 session files have no ids in the file: forgebench derives stable ones (not Pi's; Pi gives them random ids when it rewrites the file).")

// maxSkippedShown bounds the skipped lines `session show` lists.
const maxSkippedShown = 20

// SessionShowCmd loads a session and prints a summary.
type SessionShowCmd struct {
	File string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr). Lines above 32 MiB are skipped (one scan, named on stderr); session context reads them." predictor:"session"`
	JSON bool   `name:"json" help:"Print {header, entries, skippedLines, leafId, pathLength, contextMessages, name, labels}."`
}

// Run builds the tree and the leaf context and prints the summary; it is
// the command used to time loading from outside.
func (c *SessionShowCmd) Run(g *Globals) error {
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	c.File = file
	s, _, err := g.openForDisplay(c.File, "")
	if err != nil {
		return err
	}
	g.sessionNotes(s, s.RepairNotes())
	if c.JSON {
		out, err := session.SummaryJSON(s)
		if err != nil {
			return err
		}
		_, err = g.stdout.Write(append(out, '\n'))
		return err
	}
	sum, err := session.SummaryValue(s)
	if err != nil {
		return err
	}
	get := func(k string) string {
		v, _ := sum.Get(k)
		if str, ok := v.(string); ok {
			return sanitize.Clip(str, 200)
		}
		return jsonv.Stringify(v)
	}
	w := g.stdout
	fmt.Fprint(w, i18n.T("file           %s\n", sanitize.Line(s.Path)))
	fmt.Fprint(w, i18n.T("id             %s\n", sanitize.Clip(s.Header.ID, 80)))
	fmt.Fprint(w, i18n.T("cwd            %s\n", sanitize.Clip(s.Header.Cwd, 200)))
	fmt.Fprint(w, i18n.T("created        %s\n", sanitize.Clip(s.Header.Timestamp, 80)))
	fmt.Fprint(w, i18n.T("name           %s\n", get("name")))
	fmt.Fprint(w, i18n.T("entries        %s (skipped lines: %s)\n", get("entries"), get("skippedLines"))) //i18n:raw summary keys
	skipped, unnumbered := s.Diagnostics.SkippedList()
	for i, l := range skipped {
		if i == maxSkippedShown {
			unnumbered += len(skipped) - i
			break
		}
		fmt.Fprint(w, i18n.T("  line %-8d %s\n", l.Line, l.Reason))
	}
	if unnumbered > 0 {
		fmt.Fprint(w, i18n.T("  … %d more skipped line(s)\n", unnumbered))
	}
	fmt.Fprint(w, i18n.T("leaf           %s (path %s entries, %s context messages)\n", get("leafId"), get("pathLength"), get("contextMessages"))) //i18n:raw summary keys
	if parent, ok := s.ParentSession(); ok {
		fmt.Fprint(w, i18n.T("forked from    %s\n", sanitize.Clip(parent, 200)))
	}
	for _, l := range s.Labels() {
		fmt.Fprint(w, i18n.T("label          %s %s\n", sanitize.Clip(l.TargetID, 80), sanitize.Clip(l.Label, 80)))
	}
	return nil
}

// SessionContextCmd rebuilds the model context at an entry.
type SessionContextCmd struct {
	File   string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." predictor:"session"`
	Leaf   string `help:"Entry id to rebuild the context at (default: the last entry, as Pi does).${leaf_help}" placeholder:"ID" predictor:"entry"`
	JSON   bool   `name:"json" help:"Print {leafId, thinkingLevel, model, projectedEntries, agentMessages, llmMessages}; with --as-sent the document payload show session:FILE#ENTRY --json prints: {ref, kind, turn, approxTokens, request: {entry, contextEntry, forAssistant, preset?, inferred, payload, usage?}}."`
	AsSent bool   `name:"as-sent" help:"Show the request as the provider received it, rebuilt as payload show session:FILE#ENTRY rebuilds it: pi-forge's rewrite included (the Preset the branch records compiled as the library holds it now, capability updates projected), and for an assistant entry the request that produced it (the context at its parent), otherwise the request Pi would send next from the entry."`
}

// Run prints the context Pi would build at the entry (or, with --as-sent,
// the request as sent). Every line Pi accepts is read (no display limit),
// so the context matches Pi's.
func (c *SessionContextCmd) Run(g *Globals) error {
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	c.File = file
	if c.AsSent {
		return c.runAsSent(g)
	}
	s, i, err := openAt(c.File, c.Leaf)
	if err != nil {
		return err
	}
	g.sessionNotes(s, s.LoadNotes())
	if c.JSON {
		out, err := session.ContextJSON(s, c.Leaf)
		if err != nil {
			return err
		}
		_, err = g.stdout.Write(append(out, '\n'))
		return err
	}
	ctx, err := s.Context(i)
	if err != nil {
		return err
	}
	sp, err := replay.SystemPromptAt(s, i)
	if err != nil {
		return err
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	writeContext(g.stdout, s, ctx, sp.PresentationIn(cat))
	return nil
}

// writeContext prints what the provider would receive at the entry: the
// LLM messages with the system prompt rendered as Pi presents it to that
// model (one leading prompt, or in-place updates when the model supports
// mid-conversation system messages).
func writeContext(w io.Writer, s *session.Session, ctx *session.Context, pres replay.Presentation) {
	model := i18n.T("none")
	if ctx.Model != nil {
		model = ctx.Model.Provider.StrOr("?") + "/" + ctx.Model.ModelID.StrOr("?")
	}
	leaf := i18n.T("(empty session)")
	if ctx.LeafIndex >= 0 {
		leaf = sanitize.Clip(s.Entries[ctx.LeafIndex].ID, 80)
	}
	mode := i18n.T("collapsed into one leading system message")
	if pres.Native {
		mode = i18n.T("sent in place (the model supports mid-conversation system messages)")
	}
	fmt.Fprint(w, i18n.T("context at %s · model %s · thinking %s · %d messages\nsystem prompt: %s\n",
		leaf, sanitize.Clip(model, 80), sanitize.Clip(ctx.ThinkingLevel.StrOr("off"), 40), len(pres.Messages), mode))
	systemText := map[int]string{}
	for _, ps := range pres.System {
		systemText[ps.Position] = ps.Text
	}
	for i, m := range pres.Messages {
		obj, _ := m.(*jsonv.Object)
		role := "?"
		if obj != nil {
			if r, ok := obj.Get("role"); ok {
				role, _ = r.(string)
			}
		}
		text, isSystem := systemText[i]
		if !isSystem {
			text = messageText(obj)
		}
		fmt.Fprintf(w, "\n── %d · %s ──\n%s\n", i+1, sanitize.Clip(role, 40), sanitize.Text(text))
	}
}

// messageText flattens an LLM message for reading: text blocks, thinking
// (marked), tool calls with their arguments, images as placeholders.
func messageText(m *jsonv.Object) string {
	if m == nil {
		return ""
	}
	content, _ := m.Get("content")
	switch c := content.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, b := range c {
			block, ok := b.(*jsonv.Object)
			if !ok {
				continue
			}
			typ, _ := block.Get("type")
			switch typ {
			case "text":
				t, _ := block.Get("text")
				parts = append(parts, jsonv.ToString(t))
			case "thinking":
				t, _ := block.Get("thinking")
				parts = append(parts, "[thinking] "+jsonv.ToString(t))
			case "toolCall":
				name, _ := block.Get("name")
				args, _ := block.Get("arguments")
				parts = append(parts, "→ "+jsonv.ToString(name)+" "+jsonv.Stringify(args))
			case "image":
				parts = append(parts, "[image]")
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}
