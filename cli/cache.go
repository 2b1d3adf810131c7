package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/cachemiss"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
)

// CacheCmd is the prompt-cache economics group.
type CacheCmd struct {
	Report CacheReportCmd `cmd:"" help:"Every lost prompt-cache prefix, as Pi 1.6.0 counts them, with its cause and price, over sessions."`
}

// CacheReportCmd reports the cache breaks of sessions.
type CacheReportCmd struct {
	Sessions        []string `arg:"" optional:"" name:"SESSION" help:"Sessions: files (.jsonl), session ids or unique prefixes (default: every session of the project)."`
	AllProjects     bool     `name:"all-projects" help:"Every project's sessions under <agent-dir>/sessions, not just this cwd's (with no SESSION)."`
	Since           string   `help:"Only sessions active and breaks at or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] in local time, or RFC 3339)." placeholder:"DATE"`
	By              string   `help:"Group the text table by cause, item (the cause's ref), model or session." enum:"cause,item,model,session" default:"cause"`
	JSON            bool     `name:"json" help:"Print one JSON document: {sessions, requests, tokens{input, output, cacheRead, cacheWrite}, hitRate, rewriteFactor, breaks[{file, sessionId, entryId, previousEntryId, timestamp, model, missedTokens, missedCostUSD, idleSeconds, cause{kind, detail, ref}}], byCause{KIND{count, missedTokens, missedCostUSD}}}."`
	FailOnBreakCost *float64 `name:"fail-on-break-cost" placeholder:"USD" help:"Exit 1 when the priced breaks cost more than USD in total (for CI)."`
}

// costliestShown is how many breaks the text output lists.
const costliestShown = 10

// Run reads the sessions one per core, finds their breaks as Pi counts
// them and the cause of each, and prints the report.
func (c *CacheReportCmd) Run(g *Globals) error {
	var since time.Time
	if c.Since != "" {
		t, err := parseSince(c.Since, time.Local)
		if err != nil {
			return fail(exitUsage, "--since: %s", sanitize.Line(err.Error())) //i18n:raw the flag's name before parseSince's error, translated there
		}
		since = t
	}
	if c.FailOnBreakCost != nil && !(*c.FailOnBreakCost >= 0) {
		return failErr(exitUsage, i18n.Errorf("--fail-on-break-cost must be a non-negative amount in USD"))
	}
	files, err := c.files(g, since)
	if err != nil {
		return err
	}
	svc, err := g.services()
	if err != nil {
		return err
	}
	opts := svc.RequestOptionsWith(g.loadLibrary)
	rep, problems := analyzeAll(files, opts, cachemiss.UserReportCache(svc.Workspace().AgentDir))
	for _, p := range problems {
		fmt.Fprintf(g.stderr, "%s\n", sanitize.Line(p))
	}
	if !since.IsZero() {
		rep.Since(since)
	}
	if c.JSON {
		if err := rep.WriteJSON(g.stdout); err != nil {
			return err
		}
	} else {
		writeCacheReport(g.stdout, rep, c.By)
	}
	if c.FailOnBreakCost != nil && rep.TotalCost() > *c.FailOnBreakCost {
		return failErr(exitFailed, i18n.Errorf("cache breaks cost $%s, above --fail-on-break-cost $%s",
			strconv.FormatFloat(rep.TotalCost(), 'f', 4, 64), strconv.FormatFloat(*c.FailOnBreakCost, 'f', -1, 64)))
	}
	return nil
}

// files lists the sessions to read: the named ones through the one
// session resolver, else the project's (or every project's) sessions.
func (c *CacheReportCmd) files(g *Globals, since time.Time) ([]string, error) {
	if len(c.Sessions) > 0 {
		if c.AllProjects {
			return nil, failErr(exitUsage, i18n.Errorf("--all-projects reads every project's sessions: name no SESSION with it"))
		}
		out := make([]string, 0, len(c.Sessions))
		for _, arg := range c.Sessions {
			if arg == "" {
				return nil, failErr(exitUsage, i18n.Errorf("SESSION is empty (a file, a session id or a unique prefix of one)"))
			}
			f, err := g.namedSession(arg, "SESSION", readsSession)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
		return out, nil
	}
	ws, err := g.workspace()
	if err != nil {
		return nil, err
	}
	loc, home, err := g.sessionLocations("")
	if err != nil {
		return nil, i18n.Errorf("session locations: %w", err)
	}
	var items []session.ListItem
	if c.AllProjects {
		items, err = session.ListAll(loc, session.ListOptions{Home: home})
	} else {
		// Through the listing cache, as the Payloads panel's cache view
		// lists them: only the sessions that changed since the last
		// listing are read; reading each of a project's 2,000 sessions
		// only to list it was a tenth of the report.
		items, err = cachemiss.ListProject(loc, ws.Cwd, session.ListOptions{Home: home})
	}
	if err != nil {
		return nil, i18n.Errorf("list sessions: %w", err)
	}
	var out []string
	for _, it := range items {
		if it.Problem != "" || (!since.IsZero() && it.LastActivity.Before(since)) {
			continue
		}
		out = append(out, it.Path)
	}
	return out, nil
}

// analyzeAll reports on files through the report cache
// (cachemiss.ReportFilesCached: only the files that changed since the last
// report are read), a session that needs the full reader read as the
// display paths read it.
func analyzeAll(files []string, opts replay.RequestOptions, cache cachemiss.ReportCache) (*cachemiss.Report, []string) {
	return cachemiss.ReportFilesCached(files, opts, func(path string) (*session.Session, error) {
		return session.OpenWithOptions(path, readOptions(path))
	}, cache)
}

// readOptions reads a session as the display paths do, sized to the file:
// a project's sessions are mostly small and read one per core, and a 4 MiB
// read buffer and a decoder per core for each was most of the report's
// time over 2,000 of them.
func readOptions(path string) session.Options {
	opt := session.DisplayOptions()
	if fi, err := os.Stat(path); err == nil && fi.Size() < 4<<20 {
		opt.ChunkBytes = max(64<<10, int(fi.Size())+1)
		opt.Workers = 1
	}
	return opt
}

// writeCacheReport prints the totals, the table by dim and the ten
// costliest breaks with the command that shows each one's diff.
func writeCacheReport(w io.Writer, rep *cachemiss.Report, dim string) {
	hit, rewrite := "n/a", "n/a"
	if h, ok := rep.HitRate(); ok {
		hit = fmt.Sprintf("%.1f%%", 100*h)
	}
	if f, ok := rep.RewriteFactor(); ok {
		rewrite = fmt.Sprintf("%.2f", f)
	}
	t := rep.Tokens
	fmt.Fprint(w, i18n.T("%d session(s) · %d request(s) · cache hit %s · re-write factor %s\n", rep.Sessions, rep.Requests, hit, rewrite))
	fmt.Fprint(w, i18n.T("tokens in %s · out %s · cache read %s · cache write %s\n", count(t.Input), count(t.Output), count(t.CacheRead), count(t.CacheWrite)))
	if len(rep.Breaks) == 0 {
		fmt.Fprintln(w, i18n.T("\nno cache breaks (as Pi 1.6.0 counts them)"))
		return
	}
	// Columns in display width: the headers may be Chinese.
	fmt.Fprintf(w, "\n%s %s %s %s\n", common.PadRight(i18n.T("by %s", dim), 40), common.PadLeft(i18n.T("breaks"), 7), common.PadLeft(i18n.T("missed tokens"), 14), common.PadLeft(i18n.T("missed cost"), 12))
	var total cachemiss.Group
	for _, gr := range rep.GroupBy(dim) {
		fmt.Fprintf(w, "%s %7d %14s %12s\n", common.PadRight(sanitize.Clip(gr.Label, 40), 40), gr.Count, count(gr.MissedTokens), groupCost(gr))
		total.Count += gr.Count
		total.MissedTokens += gr.MissedTokens
		total.MissedCost += gr.MissedCost
		total.Priced += gr.Priced
	}
	fmt.Fprintf(w, "%s %7d %14s %12s\n", common.PadRight(i18n.T("total"), 40), total.Count, count(total.MissedTokens), groupCost(total))
	top := rep.Costliest(costliestShown)
	fmt.Fprint(w, i18n.T("\n%d costliest break(s)\n", len(top)))
	for i := range top {
		b := &top[i]
		cost := i18n.T("unpriced")
		if b.CostKnown() {
			cost = fmt.Sprintf("$%.4f", b.Miss.MissedCost)
		}
		ref := ""
		if b.Cause.Ref != "" {
			ref = " " + sanitize.Clip(b.Cause.Ref, 40)
		}
		fmt.Fprintf(w, "  %s · %s tokens · %s%s · %s\n    %s\n    forgebench payload diff %s %s\n", //i18n:raw figures, the cause's kind and a command; "tokens" stays (glossary)
			cost, count(b.Miss.MissedTokens),
			b.Cause.Kind, ref, sanitize.Clip(b.Cause.Line(), 120), sanitize.Clip(b.Timestamp, 30)+" "+sanitize.Clip(b.Miss.Provider+"/"+b.Miss.Model, 60),
			shellWord("session:"+b.File+"#"+b.Miss.PreviousEntryID), shellWord("session:"+b.File+"#"+b.Miss.EntryID))
	}
}

func groupCost(g cachemiss.Group) string {
	if g.Priced == 0 {
		return "unpriced"
	}
	s := fmt.Sprintf("$%.4f", g.MissedCost)
	if g.Priced < g.Count {
		s += "+"
	}
	return s
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	safe := true
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '#' || r == '@' || r == '+' || r == ',' || r == '=' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')) {
			safe = false
			break
		}
	}
	if safe {
		return sanitize.Line(s)
	}
	return "'" + strings.ReplaceAll(sanitize.Line(s), "'", `'\''`) + "'"
}
