package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/cachemiss"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/ui/common"
)

// SessionStatsCmd prints Pi's session statistics.
type SessionStatsCmd struct {
	File    string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." predictor:"session"`
	Branch  bool   `help:"Count only the branch ending at --leaf (default: every entry of the file, as Pi's /session does)."`
	Leaf    string `help:"Leaf of the branch (implies --branch; default: the last entry).${leaf_help}" placeholder:"ID" predictor:"entry"`
	JSON    bool   `name:"json" help:"Print the statistics as JSON (keys documented in stats.StatsJSON, plus \"cache\": replay.CacheValue, and \"streams\": stats.StreamsValue, the main requests apart from the runs inside tool calls)."`
	Predict *int   `name:"predict" placeholder:"N" help:"Predict the cache boundary at the N most recent cache drops (default 5; each rebuilds up to two requests); --predict=-1 predicts every drop."`
}

// Run counts messages, tool calls, tokens and cost, pricing usages that
// lack a cost from the model catalog (the agent dir's models.json applies).
func (c *SessionStatsCmd) Run(g *Globals) error {
	predict := replay.MaxPredictedDrops
	if c.Predict != nil {
		if predict = *c.Predict; predict < -1 {
			return failErr(exitUsage, i18n.Errorf("--predict must be -1 (every drop) or more"))
		}
	}
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	c.File = file
	s, _, err := g.openForDisplay(c.File, "")
	if err != nil {
		return err
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	// The parts below each walk the whole session; they only read it, so
	// they run side by side (a 100 MB session of small entries took them
	// one after another for most of a second).
	leaf, branch := s.LeafIndex(), c.Branch || c.Leaf != ""
	if branch {
		if leaf, err = leafIndex(s, c.Leaf); err != nil {
			return err
		}
	}
	// Breaks as Pi counts them: over the file in file order, as Pi's
	// /session and transcript notices do, or over the branch asked for.
	var scope []int
	if branch && leaf >= 0 {
		scope = s.PathTo(leaf)
	}
	opts := g.svc.RequestOptionsWith(g.loadLibrary)
	var (
		st      stats.Stats
		cache   replay.CacheReport
		preds   []replay.Prediction
		breaks  cachemiss.Result
		streams stats.Streams
		reqs    []stats.Request
	)
	var work session.FaultGroup
	work.Go(func() {
		if branch {
			st = stats.BranchStats(s, leaf, cat)
		} else {
			st = stats.SessionStats(s, cat)
		}
	})
	work.Go(func() {
		cache = replay.CacheReportAt(s, leaf)
		preds = replay.PredictDrops(s, cache, opts, predict)
	})
	work.Go(func() { breaks = cachemiss.Detect(s, scope, cat) })
	work.Go(func() {
		indexes := requestScope(s, scope)
		reqs = stats.Requests(s, indexes, cat)
		streams = stats.StreamsOf(s, indexes, reqs)
	})
	work.Wait()
	if c.JSON {
		v := stats.StatsValue(s, st)
		cv := replay.CacheValue(cache, st.Scope == stats.StatsScopeSession, preds)
		cv.Set("breaks", cachemiss.BreaksValue(breaks.Misses))
		v.Set("cache", cv)
		v.Set("streams", stats.StreamsValue(streams))
		_, err := io.WriteString(g.stdout, jsonv.Stringify(v)+"\n")
		return err
	}
	// One write per 64 KiB, not per line: a session with thousands of
	// breaks prints a line for each.
	out := bufio.NewWriterSize(g.stdout, 64<<10)
	writeStats(out, s, st)
	writeStreams(out, streams)
	writeRequestChart(out, reqs, breaks.Misses)
	writeCache(out, cache, st.Scope == stats.StatsScopeSession, preds)
	writeBreaks(out, s, breaks.Misses)
	return out.Flush()
}

// requestScope is the entries the per-request chart walks: the branch's
// path, or every entry in file order (nil scope), as the breaks are found.
func requestScope(s *session.Session, scope []int) []int {
	if scope != nil {
		return scope
	}
	all := make([]int, len(s.Entries))
	for i := range all {
		all[i] = i
	}
	return all
}

func writeStats(w io.Writer, s *session.Session, st stats.Stats) {
	scope := i18n.T("whole session")
	if st.Scope == stats.StatsScopeBranch && st.LeafIndex >= 0 {
		scope = i18n.T("branch to %s", sanitize.Clip(s.Entries[st.LeafIndex].ID, 80))
	}
	fmt.Fprint(w, i18n.T("%s · %d entries\n\n", scope, st.Entries))
	fmt.Fprint(w, i18n.T("messages     %d (user %d, assistant %d, tool results %d)\n", st.TotalMessages, st.UserMessages, st.AssistantMessages, st.ToolResults))
	for _, rc := range st.RoleCounts {
		fmt.Fprintf(w, "  %-16s %d\n", sanitize.Clip(rc.Role, 16), rc.Count)
	}
	fmt.Fprint(w, i18n.T("tool calls   %d\n", st.ToolCalls))
	t := st.Tokens
	fmt.Fprint(w, i18n.T("tokens       %s total · in %s · out %s · cache read %s · cache write %s\n",
		count(t.Total), count(t.Input), count(t.Output), count(t.CacheRead), count(t.CacheWrite)))
	fmt.Fprint(w, i18n.T("cost         $%.4f", st.Cost))
	if len(st.Recomputed) > 0 {
		fmt.Fprint(w, i18n.T(" (stored $%.4f; %d usage(s) without a cost priced from the catalog)", st.StoredCost, len(st.Recomputed)))
	}
	fmt.Fprintln(w)
	if len(st.Unpriced) > 0 {
		fmt.Fprint(w, i18n.T("             %d usage(s) without a cost could not be priced (model unknown)\n", len(st.Unpriced)))
	}
	if ctx := st.Context; ctx != nil {
		if ctx.Known {
			fmt.Fprint(w, i18n.T("context      %s / %s tokens (%.1f%%) on %s/%s\n", count(ctx.Tokens), count(ctx.ContextWindow), ctx.Percent,
				sanitize.Clip(ctx.Provider, 40), sanitize.Clip(ctx.ModelID, 60)))
		} else {
			fmt.Fprint(w, i18n.T("context      unknown until the next answer (window %s on %s/%s)\n", count(ctx.ContextWindow),
				sanitize.Clip(ctx.Provider, 40), sanitize.Clip(ctx.ModelID, 60)))
		}
	}
	if len(st.ByModel) > 0 {
		fmt.Fprintln(w, i18n.T("\nby model"))
		for _, m := range st.ByModel {
			fmt.Fprintf(w, "  %-40s $%.4f  %s tokens\n", sanitize.Clip(m.Key, 40), m.Cost, count(m.Tokens)) //i18n:raw figures; "tokens" stays in every language (glossary)
		}
	}
}

// writeCache prints the prompt-cache figures after the statistics: totals
// of the branch (and of the file for the whole-session scope), then each
// request where the cache dropped with the boundary the diff predicts.
func writeCache(w io.Writer, r replay.CacheReport, withFile bool, preds []replay.Prediction) {
	if r.Branch.Requests == 0 && r.File.Requests == 0 {
		return
	}
	fmt.Fprintln(w, i18n.T("\nprompt cache"))
	line := func(label string, sum *turndiff.CacheSummary) {
		hit := i18n.T("hit n/a (no cache figures reported)")
		if sum.HasRatio {
			hit = i18n.T("hit %.1f%%", 100*sum.HitRatio)
		}
		fmt.Fprint(w, i18n.T("  %-8s read %s · write %s · uncached %s · %s · %d request(s), %d drop(s)\n", common.PadCell(i18n.T(label), 8),
			count(sum.CacheRead), count(sum.CacheWrite), count(sum.Uncached), hit, sum.Requests, len(sum.Drops)))
	}
	line(i18n.Mark("branch"), &r.Branch)
	if withFile {
		line(i18n.Mark("file"), &r.File)
	}
	if n := len(r.Branch.Drops) - len(preds); n > 0 {
		fmt.Fprint(w, i18n.T("  (%d earlier drop(s) not predicted: --predict=-1 predicts every drop)\n", n))
	}
	for i := range preds {
		p := &preds[i]
		fmt.Fprint(w, i18n.T("  drop at %s: read %s, the previous request left %s (−%s)", sanitize.Clip(p.Use.EntryID, 20),
			count(p.Use.CacheRead), count(p.Previous.CacheRead+p.Previous.CacheWrite), count(p.Use.Lost)))
		switch {
		case p.Err != nil:
			fmt.Fprint(w, i18n.T(" · not rebuilt: %s\n", sanitize.Line(p.Err.Error())))
		case !p.Breaks:
			fmt.Fprint(w, i18n.T(" · predicted: no break (~%s tokens cached); expiry or provider-side\n", count(float64(p.Diff.PrefixTokens))))
		case p.Cause != nil:
			fmt.Fprint(w, i18n.T(" · predicted: break, ~%s tokens cached · %s\n", count(float64(p.Diff.PrefixTokens)), describeCause(p.Cause)))
		default:
			fmt.Fprint(w, i18n.T(" · predicted: break, ~%s tokens cached\n", count(float64(p.Diff.PrefixTokens))))
		}
	}
}

// count prints a token count with thousands separators.
func count(f float64) string {
	n := int64(f)
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writeBreaks prints the requests that lost their cache prefix as Pi 1.6.0
// counts them (session/cachemiss), with the tokens and money re-billed.
func writeBreaks(w io.Writer, s *session.Session, misses []cachemiss.Miss) {
	if len(misses) == 0 {
		return
	}
	var tokens, cost float64
	unpriced := 0
	for i := range misses {
		tokens += misses[i].MissedTokens
		if misses[i].CostKnown && !math.IsNaN(misses[i].MissedCost) {
			cost += misses[i].MissedCost
		} else {
			unpriced++
		}
	}
	fmt.Fprint(w, i18n.T("  %d break(s) as Pi counts them · %s tokens re-billed · $%.4f", len(misses), count(tokens), cost))
	if unpriced > 0 {
		fmt.Fprint(w, i18n.T(" (%d unpriced)", unpriced))
	}
	fmt.Fprintln(w)
	for i := range misses {
		m := &misses[i]
		price := i18n.T("unpriced")
		if m.CostKnown && !math.IsNaN(m.MissedCost) {
			price = fmt.Sprintf("$%.4f", m.MissedCost)
		}
		fmt.Fprint(w, i18n.T("  break at %s: %s tokens re-billed (%s) after %s\n", sanitize.Clip(m.EntryID, 20),
			count(m.MissedTokens), price, sanitize.Clip(s.Entries[m.PreviousIndex].ID, 20)))
	}
}
