package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/components/chart"
)

// spendBarWidth is the columns of a day's cost bar in session list --stats.
const spendBarWidth = 40

// spendTop is how many of the costliest sessions the text output names.
const spendTop = 10

// printSpend prints what the listed sessions cost per day and the
// sessions that cost most, as text or as stats.SpendValue's JSON.
func (c *SessionListCmd) printSpend(g *Globals, items []session.ListItem) error {
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	sp := stats.SpendOf(items, cat, time.Local)
	if c.JSON {
		_, err := io.WriteString(g.stdout, jsonv.StringifyIndent(stats.SpendValue(sp), "  ")+"\n")
		return err
	}
	writeSpend(g.stdout, sp)
	for _, p := range sp.Problems {
		fmt.Fprintf(g.stderr, "forgebench: %s: %s\n", sanitize.Line(p.Path), sanitize.Line(p.Error)) //i18n:raw the program's name before a session reader's own message
	}
	return nil
}

// writeSpend draws the days as bars against the costliest day, then the
// costliest sessions.
func writeSpend(w io.Writer, sp stats.ProjectSpend) {
	fmt.Fprint(w, i18n.T("cost by day · %d session(s) · $%.4f · %s tokens", len(sp.Sessions), sp.Cost, count(sp.Tokens)))
	if sp.Unpriced > 0 {
		fmt.Fprint(w, i18n.T(" · %d usage(s) unpriced", sp.Unpriced))
	}
	fmt.Fprintln(w)
	if len(sp.Days) == 0 {
		fmt.Fprintln(w, i18n.T("  no usage recorded"))
		return
	}
	var top float64
	for _, d := range sp.Days {
		top = max(top, d.Cost)
	}
	plain := themes.Styles{}
	for _, d := range sp.Days {
		fmt.Fprint(w, i18n.T("  %s  %s  %9s  %12s tok  %d request(s) in %d session(s)\n", d.Day,
			chart.HBar(d.Cost, top, spendBarWidth, plain.Text.Normal), dollars(d.Cost), count(d.Tokens), d.Requests, d.Sessions))
	}
	fmt.Fprintln(w, i18n.T("\nsessions that cost most"))
	for i, s := range sp.Sessions {
		if i == spendTop {
			fmt.Fprint(w, i18n.T("  … %d more\n", len(sp.Sessions)-spendTop))
			break
		}
		fmt.Fprintf(w, "  %9s  %12s tok  %-8s  %s\n", dollars(s.Cost), count(s.Tokens), sanitize.Clip(s.ID, 8), sanitize.Clip(s.Title, 70)) //i18n:raw figures; "tok" stays in every language, as "tokens" does
	}
}

// dollars prints a cost to the hundredth of a cent.
func dollars(v float64) string { return fmt.Sprintf("$%.4f", v) }
