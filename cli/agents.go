package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// AgentsCmd groups the pi-subagent tree commands.
type AgentsCmd struct {
	List       AgentsListCmd       `cmd:"" help:"List the agents of a root session's pi-subagent tree."`
	Show       AgentsShowCmd       `cmd:"" help:"Show one agent: details, usage, model truth and recent activity."`
	Transcript AgentsTranscriptCmd `cmd:"" help:"Print an agent's transcript, newest page first (read-only)."`
	Roles      AgentsRolesCmd      `cmd:"" help:"List the pi-subagent role catalog (user and project role files) with its diagnostics."`
	Config     AgentsConfigCmd     `cmd:"" help:"Show the effective subagent.json settings; exit 1 when a file is invalid."`
}

// AgentsListCmd lists a tree.
type AgentsListCmd struct {
	Root string `arg:"" optional:"" name:"ROOT_SESSION" help:"Root session: a file, a session id or a unique prefix of one (default: the project's newest session with an agent tree, named on stderr)." predictor:"session"`
	All  bool   `help:"Include agents registered on abandoned branches (hidden by default)."`
	JSON bool   `name:"json" help:"Print an array with one object per agent: path, parent, depth, role, status, lifecycle, model, thinking, task, created, requests, toolCalls, tokens {input, output, cacheRead, cacheWrite}, cost (null when unavailable), runtimeMs, and more."`
}

// agentTree is a loaded tree with what the commands print it with.
type agentTree struct {
	tree *subagent.Tree
	cat  *catalog.Catalog
}

// openAgentTree resolves the root session argument, loads its tree with
// every agent's statistics and prints the tree's diagnostics on stderr.
// No argument picks the newest session of the project that has a tree.
func openAgentTree(g *Globals, rootArg, what string) (*agentTree, error) {
	ws, err := g.workspace()
	if err != nil {
		return nil, err
	}
	file := rootArg
	if rootArg == "" {
		loc, home, err := g.sessionLocations("")
		if err != nil {
			return nil, i18n.Errorf("session locations: %w", err)
		}
		it, err := newestTreeRoot(loc, ws.Cwd, home)
		if err != nil {
			return nil, fail(exitUsage, "%s", sanitize.Line(err.Error()))
		}
		file = it.Path
		g.sayWhichSession(it, what)
	} else if file, err = g.namedSession(rootArg, what, readsSession); err != nil {
		return nil, err
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return nil, err
	}
	opts := subagent.Options{Catalog: cat}
	if cfg := subagent.LoadConfig(ws.AgentDir, ws.Cwd, ws.Trust.Trusted); cfg.Valid() {
		opts.MaxConcurrentAgents = cfg.Values.MaxConcurrentAgents
	}
	tree, err := subagent.Open(file, opts)
	if errors.Is(err, subagent.ErrNoTree) || errors.Is(err, subagent.ErrNotRoot) {
		// No such thing (a tree for that session): a usage error, as an
		// unknown session or agent is.
		return nil, fail(exitUsage, "%s", sanitize.Line(err.Error()))
	}
	if err != nil {
		return nil, err
	}
	tree.Summaries()
	if err := writeTreeDiagnostics(g.stderr, tree.Diagnostics); err != nil {
		return nil, err
	}
	return &agentTree{tree: tree, cat: cat}, nil
}

// newestTreeRoot is the newest session of the project with an agent tree.
func newestTreeRoot(loc session.Locations, cwd, home string) (session.ListItem, error) {
	items, err := session.ListCwd(loc, cwd, session.ListOptions{Home: home})
	if err != nil {
		return session.ListItem{}, i18n.Errorf("list sessions: %w", err)
	}
	for _, it := range items {
		if it.HasAgentTree {
			return it, nil
		}
	}
	return session.ListItem{}, i18n.Errorf("%w: no session of %s has a pi-subagent tree; name the root session", session.ErrNoSuchSession, cwd)
}

// Run prints the tree as a table (or JSON).
func (c *AgentsListCmd) Run(g *Globals) error {
	at, err := openAgentTree(g, c.Root, "ROOT_SESSION")
	if err != nil {
		return err
	}
	agents := at.tree.VisibleAgents(c.All)
	if c.JSON {
		return writeAgentListJSON(g.stdout, agents, at.cat)
	}
	// Buffered: a tree of 100,000 agents is millions of table cells, each
	// its own write otherwise.
	out := bufio.NewWriterSize(g.stdout, 64<<10)
	writeAgentList(out, at.tree, agents)
	return out.Flush()
}

// writeAgentList prints the tree's header, one row per agent and the
// totals.
func writeAgentList(w io.Writer, tree *subagent.Tree, agents []*subagent.Agent) {
	writeTreeHeader(w, tree)
	if len(agents) == 0 {
		fmt.Fprintln(w, i18n.T("no agents"))
		return
	}
	rows := make([]string, 0, len(agents)+1)
	rows = append(rows, i18n.T("PATH\tROLE\tSTATUS\tLIFECYCLE\tCOST\tRUN TIME\tREQ/TOOLS\tTOKENS in/out/cache\tCREATED\tTASK"))
	hidden := i18n.T(" (hidden)")
	for _, a := range agents {
		path := sanitize.Clip(a.Path, 60)
		if !a.Visible {
			path += hidden
		}
		rows = append(rows, strings.Join([]string{path, sanitize.Clip(a.Descriptor.Role.Name, 20),
			sanitize.Clip(a.Status, 14), sanitize.Clip(a.Lifecycle, 9), a.CostText(), a.RuntimeText(), a.CountsText(),
			a.TokensText(), a.CreatedClock(time.Local), sanitize.Clip(a.Task(), 60)}, "\t"))
	}
	writeColumns(w, rows)
	t := subagent.TotalsOf(agents)
	cost := fmt.Sprintf("$%.4f", t.Cost)
	if !t.CostComplete {
		cost += i18n.T(" (some costs unavailable)")
	}
	fmt.Fprint(w, i18n.T("\ntotal  %s · %s · run time %s · %s · %s (+%d nested) · tokens %s in / %s out / %s cache\n",
		i18n.T("%d agents", t.Agents), cost, subagent.FormatDuration(t.RuntimeMs), i18n.T("%d requests", t.Requests),
		i18n.T("%d tool calls", t.ToolCalls), t.NestedToolCalls,
		subagent.FormatTokens(t.Tokens.Input), subagent.FormatTokens(t.Tokens.Output), subagent.FormatTokens(t.Tokens.CacheRead+t.Tokens.CacheWrite)))
}

// writeColumns prints rows of tab-separated cells as text/tabwriter does
// with two spaces of padding (every column but the last as wide as its
// widest cell in display columns, so Chinese headers and names stay
// aligned), from the rows as strings: tabwriter keeps every
// cell of a table until it is flushed, 66 MB for 100,000 agents. Cells are
// sanitised text, which holds no tabs.
func writeColumns(w io.Writer, rows []string) {
	var widths []int
	for _, r := range rows {
		for i := 0; ; i++ {
			tab := strings.IndexByte(r, '\t')
			if tab < 0 {
				break // the last cell sets no width
			}
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(r[:tab]))
			r = r[tab+1:]
		}
	}
	var line []byte
	for _, r := range rows {
		line = line[:0]
		for i := 0; ; i++ {
			tab := strings.IndexByte(r, '\t')
			if tab < 0 {
				line = append(line, r...)
				break
			}
			line = append(line, r[:tab]...)
			for range widths[i] - ansi.StringWidth(r[:tab]) + 2 {
				line = append(line, ' ')
			}
			r = r[tab+1:]
		}
		w.Write(append(line, '\n'))
	}
}

// writeTreeHeader prints which tree this is and its run slots.
func writeTreeHeader(w io.Writer, t *subagent.Tree) {
	id := t.ID
	if id == "" {
		id = i18n.T("(none)")
	}
	hidden := len(t.Agents) - len(t.VisibleAgents(false))
	fmt.Fprint(w, i18n.T("tree %s of session %s (layout %s) · %d agents", sanitize.Clip(id, 40), sanitize.Clip(t.RootSessionID, 40), t.Layout, len(t.Agents)))
	if hidden > 0 {
		fmt.Fprint(w, i18n.T(" (%d hidden)", hidden))
	}
	fmt.Fprint(w, i18n.T(" · %d/%s active runs · %d pending for /root\n\n", t.ActiveRuns(), number(t.MaxConcurrentAgents), len(t.RootMailbox)))
}

func number(f float64) string { return jsonv.Stringify(f) }

// AgentsShowCmd shows one agent.
type AgentsShowCmd struct {
	Path    string `arg:"" help:"Agent path (/root/review, or review for a child of /root)." predictor:"agent"`
	Session string `short:"s" help:"Root session: a file, a session id or a prefix (default: the project's newest session with an agent tree)." placeholder:"ROOT_SESSION" predictor:"session"`
	JSON    bool   `name:"json" help:"Print the agent as JSON: the list keys plus descriptor, mailbox and outbox messages, usage by model, runs, activity, run slots and diagnostics."`
}

// findAgent resolves an agent path in a tree ("name" means "/root/name").
func findAgent(t *subagent.Tree, path string) (*subagent.Agent, error) {
	if !strings.HasPrefix(path, "/") {
		path = subagent.RootPath + "/" + path
	}
	a, ok := t.Agent(path)
	if !ok {
		return nil, failErr(exitUsage, i18n.Errorf("no agent %s in tree %s", sanitize.Clip(path, 80), sanitize.Clip(t.ID, 40)))
	}
	return a, nil
}

// agentSession opens an agent's own session for activity and transcripts.
func agentSession(a *subagent.Agent) (*session.Session, error) {
	if a.File == "" {
		return nil, failErr(exitFailed, i18n.Errorf("the session file of %s is missing (%s)", a.Path, sanitize.Line(a.SessionFile)))
	}
	s, err := session.OpenForDisplay(a.File) // a display path: runaway lines are skipped
	if err != nil {
		return nil, i18n.Errorf("open the session of %s: %w", a.Path, err)
	}
	return s, nil
}

// Run prints the agent's details, usage and recent activity.
func (c *AgentsShowCmd) Run(g *Globals) error {
	at, err := openAgentTree(g, c.Session, "--session")
	if err != nil {
		return err
	}
	a, err := findAgent(at.tree, c.Path)
	if err != nil {
		return err
	}
	var activity []subagent.ActivityItem
	if a.File != "" {
		s, err := agentSession(a)
		if err != nil {
			return err
		}
		activity = subagent.Activity(s, subagent.ActivityItems)
	}
	if c.JSON {
		_, err := io.WriteString(g.stdout, jsonv.StringifyIndent(subagent.ShowJSON(at.tree, a, activity, at.cat), "  ")+"\n")
		return err
	}
	writeAgent(g.stdout, at, a, activity)
	return nil
}

// writeAgent prints the human view of one agent.
func writeAgent(w io.Writer, at *agentTree, a *subagent.Agent, activity []subagent.ActivityItem) {
	// row prints a label (marked, translated here) padded to 15 display
	// columns, then its value.
	row := func(k, v string) { fmt.Fprintf(w, "%s%s\n", common.PadCell(i18n.T(k), 15), v) }
	row(i18n.Mark("path"), sanitize.Line(a.Path))
	if !a.Visible {
		row(i18n.Mark("hidden"), sanitize.Line(a.Hidden))
	}
	row(i18n.Mark("parent"), sanitize.Line(a.Parent))
	row(i18n.Mark("role"), sanitize.Line(a.Descriptor.Role.Name)+roleSource(a))
	row(i18n.Mark("status"), sanitize.Line(a.Status))
	row(i18n.Mark("lifecycle"), sanitize.Line(a.Lifecycle))
	sel := a.Selected()
	row(i18n.Mark("selected"), i18n.T("%s · thinking %s", sanitize.Line(sel.Model.String()), orDash(sanitize.Line(sel.Thinking))))
	if lr := a.LastResponse(); lr != nil {
		note := ""
		if a.ModelDiffers() {
			note = i18n.T("  (differs from the selected model)")
		}
		row(i18n.Mark("last response"), i18n.T("%s · thinking %s", sanitize.Line(lr.Model.String()), orDash(sanitize.Line(lr.Thinking)))+note)
	} else {
		row(i18n.Mark("last response"), i18n.T("none"))
	}
	if ce := a.Context(at.cat); ce.Known && ce.Window > 0 {
		row(i18n.Mark("context"), fmt.Sprintf("%s / %s (%.1f%%, %s)", subagent.FormatTokens(ce.Tokens), subagent.FormatTokens(ce.Window), ce.Percent, ce.Source))
	} else if ce.Known {
		row(i18n.Mark("context"), i18n.T("%s (context window unknown)", subagent.FormatTokens(ce.Tokens)))
	} else {
		row(i18n.Mark("context"), i18n.T("unknown"))
	}
	row(i18n.Mark("run slots"), i18n.T("%d/%s active runs in the tree", at.tree.ActiveRuns(), number(at.tree.MaxConcurrentAgents)))
	row(i18n.Mark("created"), sanitize.Line(a.Descriptor.CreatedAt))
	ms, src, ok := a.Runtime()
	if ok {
		row(i18n.Mark("run time"), subagent.FormatDuration(ms)+" ("+src+")")
	} else {
		row(i18n.Mark("run time"), i18n.T("unknown"))
	}
	row(i18n.Mark("cost"), a.CostText())
	if s := a.Summary; s != nil {
		st := s.Stats
		row(i18n.Mark("requests"), i18n.T("%d · tool calls %d (+%d nested)", st.AssistantMessages, st.ToolCalls, s.NestedToolCalls))
		row(i18n.Mark("tokens"), i18n.T("in %s · out %s · cache read %s · cache write %s", subagent.FormatTokens(st.Tokens.Input),
			subagent.FormatTokens(st.Tokens.Output), subagent.FormatTokens(st.Tokens.CacheRead), subagent.FormatTokens(st.Tokens.CacheWrite)))
		if s.InheritedEntries > 0 {
			row(i18n.Mark("copied history"), i18n.T("%d entries from the parent (not counted)", s.InheritedEntries))
		}
	}
	row(i18n.Mark("mailbox"), i18n.T("%d pending · outbox %d", len(a.Mailbox), len(a.Outbox)))
	if a.Error != "" {
		row(i18n.Mark("error"), sanitize.Line(a.Error))
	}
	row(i18n.Mark("session"), sanitize.Line(orDash(a.File)))
	fmt.Fprint(w, i18n.T("\ntask\n%s\n", indentText(sanitize.Text(orDash(a.Task())))))
	fmt.Fprint(w, i18n.T("\nrecent activity (%d)\n", len(activity)))
	for _, it := range activity {
		when := "--:--:--"
		if !math.IsNaN(it.TimeMs) {
			when = time.UnixMilli(int64(it.TimeMs)).Local().Format("15:04:05")
		}
		mark := ""
		if it.Error {
			mark = " !"
		}
		fmt.Fprintf(w, "%s %-8s %s%s\n", when, it.Kind, sanitize.Line(it.Title), mark)
		if it.Preview != "" {
			fmt.Fprintln(w, indentText(it.Preview))
		}
	}
}

func roleSource(a *subagent.Agent) string {
	if a.Descriptor.Role.Source == "" {
		return ""
	}
	return " (" + sanitize.Line(a.Descriptor.Role.Source) + ")"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func indentText(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// writeAgentListJSON writes `agents list --json`, the same bytes as
// JSON.stringify(subagent.ListJSON(agents), null, 2), one agent at a time
// through a buffer: a tree of 100,000 agents never exists as one value
// tree or one string (that took 720 MB and 7 s).
func writeAgentListJSON(w io.Writer, agents []*subagent.Agent, cat *catalog.Catalog) error {
	if len(agents) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	out := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 4<<10)
	for i, a := range agents {
		buf = buf[:0]
		if i == 0 {
			buf = append(buf, "[\n  "...)
		} else {
			buf = append(buf, ",\n  "...)
		}
		buf = jsonv.AppendStringifyIndent(buf, subagent.AgentJSON(a, cat), "  ", "  ")
		if _, err := out.Write(buf); err != nil {
			return err
		}
	}
	if _, err := out.WriteString("\n]\n"); err != nil {
		return err
	}
	return out.Flush()
}

// maxSameDiagnostic is how many diagnostics with one message are printed
// before the rest are counted on one line: a pruned tree of 100,000 agents
// has as many "session file not found", which bury everything else.
const maxSameDiagnostic = 20

// writeTreeDiagnostics prints a tree's diagnostics to stderr, the first
// maxSameDiagnostic of each message in full and then one line counting the
// others, in the order of their first appearance.
func writeTreeDiagnostics(w io.Writer, diags []subagent.Diagnostic) error {
	ew := bufio.NewWriterSize(w, 64<<10)
	seen := map[string]int{}
	var order []string
	for _, d := range diags {
		key := d.Severity + "\x00" + d.Message
		n := seen[key]
		if n == 0 {
			order = append(order, key)
		}
		seen[key] = n + 1
		if n >= maxSameDiagnostic {
			continue
		}
		ew.WriteString(d.Severity)
		ew.WriteString(": ")
		if d.File != "" {
			ew.WriteString(sanitize.Line(d.File))
			ew.WriteString(": ")
		}
		ew.WriteString(sanitize.Line(d.Message))
		ew.WriteByte('\n')
	}
	for _, key := range order {
		if more := seen[key] - maxSameDiagnostic; more > 0 {
			sev, msg, _ := strings.Cut(key, "\x00")
			fmt.Fprint(ew, i18n.T("%s: %d more like this: %s\n", sev, more, sanitize.Line(msg)))
		}
	}
	return ew.Flush()
}
