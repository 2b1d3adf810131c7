package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
)

// SessionCompositionCmd splits the request at an entry into what fills it.
type SessionCompositionCmd struct {
	File string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." predictor:"session"`
	Leaf string `help:"Entry whose request to split (default: the last entry): for an assistant entry the request that produced it, else the request Pi would send next from it.${leaf_help}" placeholder:"ID" predictor:"entry"`
	JSON bool   `name:"json" help:"Print {total, recordedInput, parts: [{kind, label, ref, chars, tokens, share, inPrefix}]}; part tokens add up to total; recordedInput null when no usage was recorded (tokens are then chars/4 estimates, inPrefix null)."`
}

// Run rebuilds the request as sent (pi-forge's rewrite included, as
// `session context --as-sent` does) and prints its parts.
func (c *SessionCompositionCmd) Run(g *Globals) error {
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	rv, err := g.resolver()
	if err != nil {
		return err
	}
	ref := replay.Ref{Kind: replay.RefSession, Path: file, Entry: c.Leaf}.String()
	r, err := resolveRef(rv, ref)
	if err != nil {
		return err
	}
	g.sessionNotes(r.Session, r.Session.LoadNotes())
	comp := compare.Compose(r.Request, compare.RequestUsage(r.Session, r.Request))
	if c.JSON {
		return printCompact(g, comp.Value())
	}
	writeComposition(g.stdout, r, comp)
	return nil
}

// compositionBarWidth is the width of the share bars.
const compositionBarWidth = 20

// writeComposition prints one line per part with a share bar.
func writeComposition(w io.Writer, r *replay.Resolved, c compare.Composition) {
	q := r.Request
	what := i18n.T("next request from entry %s", sanitize.Clip(r.Session.Entries[r.Index].ID, 80))
	if q.ForAssistant {
		what = i18n.T("request for assistant entry %s", sanitize.Clip(r.Session.Entries[r.Index].ID, 80))
	}
	fmt.Fprint(w, i18n.T("composition · %s · %s tokens\n", what, count(float64(c.Total))))
	if c.HasRecorded {
		fmt.Fprint(w, i18n.T("estimates (chars/4: %s) scaled to the recorded input of %s (input + cache read + cache write), cache read %s\n",
			count(float64(c.Estimated)), sanitize.Clip(c.UsageEntry, 40), count(float64(c.CacheRead))))
	} else {
		fmt.Fprintln(w, i18n.T("no usage recorded for this request: chars/4 estimates, cached prefix unknown"))
	}
	fmt.Fprintln(w)
	for _, p := range c.Parts {
		prefix := " "
		if p.PrefixKnown && p.InPrefix {
			prefix = "▌"
		}
		label := p.Label
		if p.Ref != "" && p.Ref != p.Label {
			label += " (" + p.Ref + ")"
		}
		fmt.Fprintf(w, "%s %s%s%10s %6.1f%% %s\n", prefix, common.PadCell(p.Kind, 15), common.PadCell(sanitize.Clip(label, 36), 37),
			count(float64(p.Tokens)), 100*p.Share, bar(p.Share, compositionBarWidth))
	}
	if c.HasRecorded {
		fmt.Fprintln(w, i18n.T("\n▌ inside the cached prefix (the recorded cache read)"))
	}
}

// bar draws a share as a bar of width cells (eighths of a cell).
func bar(share float64, width int) string {
	eighths := int(share*float64(width*8) + 0.5)
	var b strings.Builder
	b.WriteString(strings.Repeat("█", eighths/8))
	if r := eighths % 8; r > 0 {
		b.WriteRune([]rune("▏▎▍▌▋▊▉")[r-1])
	}
	return b.String()
}
