package cli

import (
	"fmt"
	"io"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
)

// SessionStatsCmd prints Pi's session statistics.
type SessionStatsCmd struct {
	File   string `arg:"" help:"Session file (.jsonl)."`
	Branch bool   `help:"Count only the branch ending at --leaf (default: every entry of the file, as Pi's /session does)."`
	Leaf   string `help:"Leaf of the branch (implies --branch; default: the last entry).${leaf_help}" placeholder:"ID"`
	JSON   bool   `name:"json" help:"Print the statistics as JSON (keys documented in session.StatsJSON)."`
}

// Run counts messages, tool calls, tokens and cost, pricing usages that
// lack a cost from the model catalog (the agent dir's models.json applies).
func (c *SessionStatsCmd) Run(g *Globals) error {
	s, _, err := g.openForDisplay(c.File, "")
	if err != nil {
		return err
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	var st session.Stats
	if c.Branch || c.Leaf != "" {
		leaf, err := leafIndex(s, c.Leaf)
		if err != nil {
			return err
		}
		st = session.BranchStats(s, leaf, cat)
	} else {
		st = session.SessionStats(s, cat)
	}
	if c.JSON {
		_, err := g.stdout.Write(append(session.StatsJSON(s, st), '\n'))
		return err
	}
	writeStats(g.stdout, s, st)
	return nil
}

func writeStats(w io.Writer, s *session.Session, st session.Stats) {
	scope := "whole session"
	if st.Scope == session.StatsScopeBranch && st.LeafIndex >= 0 {
		scope = "branch to " + sanitize.Clip(s.Entries[st.LeafIndex].ID, 80)
	}
	fmt.Fprintf(w, "%s · %d entries\n\n", scope, st.Entries)
	fmt.Fprintf(w, "messages     %d (user %d, assistant %d, tool results %d)\n", st.TotalMessages, st.UserMessages, st.AssistantMessages, st.ToolResults)
	for _, rc := range st.RoleCounts {
		fmt.Fprintf(w, "  %-16s %d\n", sanitize.Clip(rc.Role, 16), rc.Count)
	}
	fmt.Fprintf(w, "tool calls   %d\n", st.ToolCalls)
	t := st.Tokens
	fmt.Fprintf(w, "tokens       %s total · in %s · out %s · cache read %s · cache write %s\n",
		count(t.Total), count(t.Input), count(t.Output), count(t.CacheRead), count(t.CacheWrite))
	fmt.Fprintf(w, "cost         $%.4f", st.Cost)
	if len(st.Recomputed) > 0 {
		fmt.Fprintf(w, " (stored $%.4f; %d usage(s) without a cost priced from the catalog)", st.StoredCost, len(st.Recomputed))
	}
	fmt.Fprintln(w)
	if len(st.Unpriced) > 0 {
		fmt.Fprintf(w, "             %d usage(s) without a cost could not be priced (model unknown)\n", len(st.Unpriced))
	}
	if ctx := st.Context; ctx != nil {
		if ctx.Known {
			fmt.Fprintf(w, "context      %s / %s tokens (%.1f%%) on %s/%s\n", count(ctx.Tokens), count(ctx.ContextWindow), ctx.Percent,
				sanitize.Clip(ctx.Provider, 40), sanitize.Clip(ctx.ModelID, 60))
		} else {
			fmt.Fprintf(w, "context      unknown until the next answer (window %s on %s/%s)\n", count(ctx.ContextWindow),
				sanitize.Clip(ctx.Provider, 40), sanitize.Clip(ctx.ModelID, 60))
		}
	}
	if len(st.ByModel) > 0 {
		fmt.Fprintln(w, "\nby model")
		for _, m := range st.ByModel {
			fmt.Fprintf(w, "  %-40s $%.4f  %s tokens\n", sanitize.Clip(m.Key, 40), m.Cost, count(m.Tokens))
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
