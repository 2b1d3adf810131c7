package cli

import (
	"fmt"
	"io"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// SessionListCmd lists sessions, newest activity first.
type SessionListCmd struct {
	AllProjects bool   `name:"all-projects" help:"List the sessions of every project under <agent-dir>/sessions, not just this cwd's."`
	All         bool   `hidden:"" help:"The old name of --all-projects, kept working."`
	Search      string `help:"Keep sessions whose name, first user message or id matches (substring, then fuzzy)." placeholder:"TEXT"`
	SessionDir  string `name:"session-dir" help:"A custom session directory, as Pi's --session-dir." placeholder:"DIR"`
	JSON        bool   `name:"json" help:"Print an array of {path, id, cwd, created, lastActivity, name, firstMessage, messageCount, messageCountExact, size, parentSession, hasAgentTree, problem}; with --stats the object stats.SpendValue documents: {cost, tokens, unpriced, days: [{day, cost, tokens, requests, sessions}], sessions: [{path, id, title, cost, tokens, requests, unpriced}], problems: [{path, error}]}."`
	Stats       bool   `name:"stats" help:"Instead of the list: the cost and tokens of the listed sessions per day as a bar chart, and the sessions that cost most (reads every listed session)."`
}

// sessionLocations resolves where Pi keeps sessions for the workspace,
// honouring --agent-dir over $PI_CODING_AGENT_DIR.
func (g *Globals) sessionLocations(sessionDir string) (session.Locations, string, error) {
	svc, err := g.services()
	if err != nil {
		return session.Locations{}, "", err
	}
	loc, err := svc.LocationsWith(sessionDir)
	return loc, svc.Home(), err
}

// Run discovers sessions reading only headers and bounded windows.
func (c *SessionListCmd) Run(g *Globals) error {
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	loc, home, err := g.sessionLocations(c.SessionDir)
	if err != nil {
		return i18n.Errorf("session locations: %w", err)
	}
	opts := session.ListOptions{Home: home}
	var items []session.ListItem
	if c.AllProjects || c.All {
		items, err = session.ListAll(loc, opts)
	} else {
		items, err = session.ListCwd(loc, ws.Cwd, opts)
	}
	if err != nil {
		return i18n.Errorf("list sessions: %w", err)
	}
	if c.Search != "" {
		items = session.Search(items, c.Search)
	}
	if c.Stats {
		return c.printSpend(g, items)
	}
	if c.JSON {
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = listItemJSON(it)
		}
		_, err := io.WriteString(g.stdout, jsonv.StringifyIndent(list, "  ")+"\n")
		return err
	}
	if len(items) == 0 {
		fmt.Fprintln(g.stderr, i18n.T("no sessions for %s in %s", sanitize.Line(ws.Cwd), sanitize.Line(loc.SessionsRoot())))
		return nil
	}
	for _, it := range items {
		title := it.Title() // the one naming rule the TUI uses too
		if it.Problem != "" {
			title = "(" + it.Problem + ")"
		}
		tree := ""
		if it.HasAgentTree {
			tree = " [agents]"
		}
		count := fmt.Sprint(it.MessageCount)
		if !it.MessageCountExact {
			count = "~" + count
		}
		// A file that could not be read has neither a time nor a count.
		when := "—"
		if !it.LastActivity.IsZero() {
			when = it.LastActivity.Local().Format("2006-01-02 15:04")
		}
		if it.Problem != "" && it.MessageCount == 0 {
			count = "—"
		}
		fmt.Fprint(g.stdout, i18n.T("%-16s  %5s msgs  %-8s  %s%s\n    %s\n",
			when, count, sanitize.Clip(it.ID, 8), sanitize.Clip(title, 90), tree, sanitize.Line(it.Path)))
	}
	return nil
}

func listItemJSON(it session.ListItem) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("path", it.Path)
	o.Set("id", it.ID)
	o.Set("cwd", it.Cwd)
	o.Set("created", it.Created)
	o.Set("lastActivity", it.LastActivity.UTC().Format("2006-01-02T15:04:05.000Z"))
	o.Set("name", it.Name)
	o.Set("firstMessage", it.FirstMessage)
	o.Set("messageCount", float64(it.MessageCount))
	o.Set("messageCountExact", it.MessageCountExact)
	o.Set("size", float64(it.Size))
	o.Set("parentSession", it.ParentSession)
	o.Set("hasAgentTree", it.HasAgentTree)
	o.Set("problem", it.Problem)
	return o
}
