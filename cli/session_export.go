package cli

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// SessionExportCmd writes one branch of a session as Markdown or JSON.
type SessionExportCmd struct {
	File   string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr). Lines above 32 MiB are skipped (named on stderr)." predictor:"session"`
	Leaf   string `help:"Export the branch ending at this entry (default: the last entry).${leaf_help}" placeholder:"ID" predictor:"entry"`
	Format string `help:"markdown (a readable transcript) or json ({header, leafId, entries}: every entry on the branch as stored, unknown fields kept; control and format characters written as \\uXXXX escapes, as in every JSON output)." enum:"markdown,json" default:"markdown"`
	Output string `short:"o" help:"Write to FILE (atomically) instead of standard output. An existing FILE is replaced only with --force; the session itself, symbolic links, special files and anything inside Pi's agent or session directories, a pi-forge directory or a .pi directory are never written." placeholder:"FILE"`
	Force  bool   `help:"Replace an existing -o FILE (never the session being exported, a link, a special file or a file in Pi's or pi-forge's directories)."`
}

// Run exports the root→leaf path.
func (c *SessionExportCmd) Run(g *Globals) error {
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	c.File = file
	if c.Output != "" {
		// Refuse a destructive target before any work is done.
		if err := g.checkExportTarget(c.File, c.Output, c.Force); err != nil {
			return err
		}
	}
	s, leaf, err := g.openForDisplay(c.File, c.Leaf)
	if err != nil {
		return err
	}
	path := s.PathTo(leaf)
	var out string
	if c.Format == "json" {
		out, err = exportJSON(s, path, leaf)
		if err != nil {
			return err
		}
	} else {
		out = exportMarkdown(s, path)
	}
	if c.Output == "" {
		_, err = fmt.Fprint(g.stdout, out) // JSON: escaped by the JSON writer (output.go)
		return err
	}
	if c.Format == "json" {
		out = sanitize.JSONText(out) // a file gets what the terminal would
	}
	if err := g.publishExport(c.File, c.Output, c.Force, []byte(out)); err != nil {
		return err
	}
	fmt.Fprint(g.stderr, i18n.T("exported %d entries to %s\n", len(path), sanitize.Line(c.Output)))
	return nil
}

func exportJSON(s *session.Session, path []int, leaf int) (string, error) {
	header, err := jsonv.Parse(s.Header.Raw)
	if err != nil {
		return "", i18n.Errorf("re-read header: %w", err)
	}
	entries := make([]any, 0, len(path))
	for _, i := range path {
		v, err := jsonv.Parse(s.Entries[i].Raw)
		if err != nil {
			return "", i18n.Errorf("re-read entry on line %d: %w", s.Entries[i].Line, err)
		}
		entries = append(entries, v)
	}
	root := jsonv.NewObject()
	root.Set("header", header)
	if leaf >= 0 {
		root.Set("leafId", s.Entries[leaf].ID)
	} else {
		root.Set("leafId", nil)
	}
	root.Set("entries", entries)
	return jsonv.StringifyIndent(root, "  ") + "\n", nil
}

func exportMarkdown(s *session.Session, path []int) string {
	var b strings.Builder
	title := s.Header.ID
	if name, ok := s.Name(); ok && name != "" {
		title = name
	}
	fmt.Fprintf(&b, "# %s\n\n", sanitize.Clip(title, 200))
	fmt.Fprintf(&b, "- session: `%s`\n- cwd: `%s`\n- started: %s\n- entries on this branch: %d\n", //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		sanitize.Clip(s.Header.ID, 80), sanitize.Clip(s.Header.Cwd, 200), sanitize.Clip(s.Header.Timestamp, 40), len(path))
	for _, i := range path {
		writeMarkdownEntry(&b, s, &s.Entries[i])
	}
	return b.String()
}

func writeMarkdownEntry(b *strings.Builder, s *session.Session, e *session.Entry) {
	payload, err := e.Payload()
	heading := func(title string) {
		fmt.Fprintf(b, "\n## %s · %s", title, clock(e))
		if l, ok := s.LabelOf(e.ID); ok {
			fmt.Fprintf(b, " · label %q", sanitize.Clip(l, 60)) //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		}
		b.WriteString("\n\n")
	}
	if err != nil {
		heading(sanitize.Clip(e.Type, 40))
		fmt.Fprintf(b, "_(could not decode: %s)_\n", sanitize.Clip(err.Error(), 200)) //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		return
	}
	switch p := payload.(type) {
	case *session.Message:
		writeMarkdownMessage(b, heading, p)
	case *session.Compaction:
		heading("Compaction") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		b.WriteString(sanitize.Text(p.Summary) + "\n")
	case *session.BranchSummary:
		heading("Branch summary") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		b.WriteString(sanitize.Text(p.Summary) + "\n")
	case *session.CustomMessage:
		heading("Custom message (" + sanitize.Clip(p.CustomType, 60) + ")") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		b.WriteString(sanitize.Text(p.Content.PlainText("\n")) + "\n")
	default:
		sum := session.DescribeEntry(e)
		fmt.Fprintf(b, "\n_%s · %s: %s_\n", clock(e), sanitize.Clip(sum.Kind, 40), sum.Text)
	}
}

func writeMarkdownMessage(b *strings.Builder, heading func(string), m *session.Message) {
	switch m.Role {
	case "user":
		heading("User") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
	case "assistant":
		heading("Assistant (" + sanitize.Clip(m.Provider+"/"+m.Model, 80) + ")") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
	case "toolResult":
		status := ""
		if m.IsError {
			status = ", error" //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		}
		heading("Tool result (" + sanitize.Clip(m.ToolName, 60) + status + ")") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		fence(b, "", m.Content.PlainText("\n"))
		return
	case "bashExecution":
		heading("Shell") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		fence(b, "sh", "$ "+m.Command+"\n"+m.Output)
		return
	case "system":
		heading("System prompt update")                                                                                                   //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		fmt.Fprintf(b, "%d section(s) changed, %d tool(s) added, %d removed.\n", len(m.Sections), len(m.ToolsAdded), len(m.ToolsRemoved)) //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
		return
	default:
		heading(sanitize.Clip(m.Role, 40))
	}
	if m.Content.IsString {
		b.WriteString(sanitize.Text(m.Content.Text) + "\n")
	}
	for _, blk := range m.Content.Blocks {
		switch blk.Type {
		case "text":
			b.WriteString(sanitize.Text(blk.Text) + "\n")
		case "thinking":
			if blk.Thinking != "" {
				b.WriteString("> _thinking:_ " + strings.ReplaceAll(sanitize.Text(blk.Thinking), "\n", "\n> ") + "\n\n") //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
			}
		case "toolCall":
			fmt.Fprintf(b, "\n**tool call** `%s`\n", sanitize.Clip(blk.Name, 60)) //i18n:raw the Markdown export is a document, the same in every language (as the manual page)
			fence(b, "json", string(blk.Arguments))
		case "image":
			b.WriteString("_[image]_\n")
		}
	}
	if m.StopReason == "error" || m.StopReason == "aborted" {
		fmt.Fprintf(b, "\n_(%s: %s)_\n", m.StopReason, sanitize.Clip(m.ErrorMessage, 200))
	}
}

// fence writes text in a code fence long enough that the text cannot
// close it early.
func fence(b *strings.Builder, lang, text string) {
	ticks := "```"
	for strings.Contains(text, ticks) {
		ticks += "`"
	}
	fmt.Fprintf(b, "%s%s\n%s\n%s\n", ticks, lang, sanitize.Text(text), ticks)
}
