package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/search"
)

// SearchCmd searches the text of sessions and agent transcripts.
type SearchCmd struct {
	Query         string `arg:"" help:"Text to find (a regular expression with --regex)." placeholder:"QUERY"`
	AllProjects   bool   `name:"all-projects" help:"Search every project's sessions, not just this cwd's."`
	Regex         bool   `help:"QUERY is a regular expression (RE2 syntax, as Go's regexp: linear time, no backreferences or lookaround)."`
	CaseSensitive bool   `name:"case-sensitive" help:"Match case exactly (default: ignore case, Unicode simple folding)."`
	Role          string `help:"Only hits in this kind of text: user, assistant, tool (calls, results, bash), thinking or summary." placeholder:"ROLE"`
	Since         string `help:"Only entries written at or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] in local time, or RFC 3339)." placeholder:"DATE"`
	Agents        bool   `help:"Also search the pi-subagent agent transcripts of each session."`
	Limit         int    `help:"Stop after N hits (0: no limit)." default:"0" placeholder:"N"`
	JSON          bool   `name:"json" help:"Print one JSON object per hit and line: {file, sessionId, sessionName, entryId, timestamp, role, onActiveBranch, agentPath, snippet, offset}."`
}

// Run searches newest sessions first and prints hits as each file is done.
// Exit code 1 means nothing matched.
func (c *SearchCmd) Run(g *Globals) error {
	q := search.Query{Text: c.Query, Regex: c.Regex, CaseSensitive: c.CaseSensitive}
	if c.Role != "" {
		q.Roles = []string{c.Role}
	}
	if c.Limit < 0 {
		return failErr(exitUsage, i18n.Errorf("--limit must be 0 or more"))
	}
	if c.Since != "" {
		t, err := parseSince(c.Since, time.Local)
		if err != nil {
			return fail(exitUsage, "--since: %v", err) //i18n:raw the flag's name before parseSince's error, translated there
		}
		q.Since = t
	}
	m, err := search.Compile(q)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	loc, home, err := g.sessionLocations("")
	if err != nil {
		return i18n.Errorf("session locations: %w", err)
	}
	srcs, err := search.ListSources(search.Scope{Loc: loc, Cwd: ws.Cwd, Home: home, AllProjects: c.AllProjects, Agents: c.Agents})
	if err != nil {
		return err
	}
	out := &searchPrinter{w: g.stdout, json: c.JSON}
	st, err := search.NewSearcher().Search(context.Background(), m, srcs, search.Options{Limit: c.Limit, NoCache: true}, out.file)
	if err == nil {
		err = out.err
	}
	for _, p := range st.Problems {
		fmt.Fprintln(g.stderr, "forgebench: "+sanitize.Line(p))
	}
	if err != nil {
		return err
	}
	if st.Oversized > 0 {
		fmt.Fprint(g.stderr, i18n.T("forgebench: %d line(s) longer than %d MiB were not searched\n", st.Oversized, search.MaxLineBytes>>20))
	}
	if !c.JSON {
		out.summary(st)
	}
	if st.Hits == 0 {
		return failErr(exitFailed, i18n.Errorf("no hits in %d session files", st.Files))
	}
	return nil
}

// parseSince reads --since: a date (local midnight), a local date and time,
// or an RFC 3339 time.
func parseSince(s string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, i18n.Errorf("%q is not a date (want YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339)", s)
}

// searchPrinter prints results as they arrive: one JSON object per hit,
// or for people each session with its hits grouped by branch.
type searchPrinter struct {
	w        io.Writer
	json     bool
	err      error
	sessions int
}

func (p *searchPrinter) file(res search.FileResult) bool {
	if len(res.Hits) == 0 {
		return true
	}
	p.sessions++
	var b strings.Builder
	if p.json {
		for _, h := range res.Hits {
			b.WriteString(jsonv.Stringify(hitJSON(h)))
			b.WriteByte('\n')
		}
	} else {
		p.human(&b, res)
	}
	if _, err := io.WriteString(p.w, b.String()); err != nil {
		p.err = i18n.Errorf("write results: %w", err)
		return false
	}
	return true
}

// hitJSON is the --json contract, keys in this order.
func hitJSON(h search.Hit) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("file", h.File)
	o.Set("sessionId", h.SessionID)
	o.Set("sessionName", h.SessionName)
	o.Set("entryId", h.EntryID)
	o.Set("timestamp", h.Timestamp)
	o.Set("role", h.Role)
	o.Set("onActiveBranch", h.OnActiveBranch)
	if h.AgentPath != "" {
		o.Set("agentPath", h.AgentPath)
	} else {
		o.Set("agentPath", nil)
	}
	o.Set("snippet", h.Snippet.Text)
	o.Set("offset", float64(h.Offset))
	return o
}

// human prints one session: a title line, then the active branch's hits,
// then each abandoned branch's.
func (p *searchPrinter) human(b *strings.Builder, res search.FileResult) {
	if p.sessions > 1 {
		b.WriteByte('\n')
	}
	title := sanitize.Clip(res.Title(), 100)
	fmt.Fprintf(b, "%s · %s\n  %s\n", title, sanitize.Fold(res.SessionID), sanitize.Line(res.Source.Path))
	type group struct {
		label string
		hits  []search.Hit
	}
	var groups []*group
	byBranch := map[string]*group{}
	for _, h := range res.Hits {
		label := i18n.T("active branch")
		if !h.OnActiveBranch {
			label = i18n.T("abandoned branch %s", orDash(h.Branch))
			if h.Fork != "" {
				label = i18n.T("abandoned branch %s (leaves the active branch after %s)", orDash(h.Branch), h.Fork)
			}
		}
		g := byBranch[label]
		if g == nil {
			g = &group{label: label}
			byBranch[label] = g
			if h.OnActiveBranch {
				groups = append([]*group{g}, groups...)
			} else {
				groups = append(groups, g)
			}
		}
		g.hits = append(g.hits, h)
	}
	for _, g := range groups {
		fmt.Fprintf(b, "  %s\n", sanitize.Fold(g.label))
		for _, h := range g.hits {
			more := ""
			if h.Matches > 1 {
				more = fmt.Sprintf("  (+%d)", h.Matches-1)
			}
			fmt.Fprintf(b, "    %-8s  %s  %-9s  %s%s\n", sanitize.Fold(orDash(h.EntryID)), hitTime(h.Timestamp), h.Role, h.Snippet.Text, more)
		}
	}
}

// hitTime shows an entry timestamp in local time, or as written when it is
// not a time.
func hitTime(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return fmt.Sprintf("%-19s", sanitize.Clip(ts, 19))
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func (p *searchPrinter) summary(st search.Stats) {
	if p.err != nil || st.Hits == 0 {
		return
	}
	line := i18n.T("\n%d hit(s) in %d session(s); %d files in scope", st.Hits, p.sessions, st.Files)
	if st.Limited {
		line += i18n.T(", stopped at --limit %d", st.Hits)
	}
	if _, err := io.WriteString(p.w, line+"\n"); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		p.err = err
	}
}
