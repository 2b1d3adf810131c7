package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
)

// AgentsTranscriptCmd prints an agent's transcript.
type AgentsTranscriptCmd struct {
	Path    string `arg:"" help:"Agent path (/root/review, or review for a child of /root)." predictor:"agent"`
	Session string `short:"s" help:"Root session: a file, a session id or a prefix (default: the project's newest session with an agent tree)." placeholder:"ROOT_SESSION" predictor:"session"`
	Page    int    `help:"Page to print, 0 being the newest; higher numbers go back in time." default:"0"`
	Follow  bool   `help:"After the newest page, keep printing entries as the agent's session grows (ctrl+c stops)."`
	Expand  bool   `help:"Print tool output and arguments in full instead of their first lines."`
}

// Run prints one page of the transcript, then follows when asked.
func (c *AgentsTranscriptCmd) Run(g *Globals) error {
	if c.Page < 0 {
		return failErr(exitUsage, i18n.Errorf("--page must be 0 (the newest) or more"))
	}
	at, err := openAgentTree(g, c.Session, "--session")
	if err != nil {
		return err
	}
	a, err := findAgent(at.tree, c.Path)
	if err != nil {
		return err
	}
	s, err := agentSession(a)
	if err != nil {
		return err
	}
	tr := subagent.NewTranscript(s, subagent.DefaultPageSize)
	page := c.Page
	if c.Follow {
		page = 0
	}
	if page >= tr.Pages() {
		return failErr(exitUsage, i18n.Errorf("%s has %d page(s) of %d entries; --page goes up to %d", a.Path, tr.Pages(), tr.PageSize, tr.Pages()-1))
	}
	opt := subagent.RenderOptions{Expand: c.Expand, Location: time.Local}
	fmt.Fprint(g.stdout, i18n.T("%s · page %d of %d (0 = newest) · %d entries", sanitize.Line(a.Path), page, tr.Pages(), len(tr.Items)))
	if tr.Inherited > 0 {
		fmt.Fprint(g.stdout, i18n.T(", %d copied from the parent", tr.Inherited))
	}
	fmt.Fprintln(g.stdout)
	if err := subagent.RenderText(g.stdout, tr.Page(page), opt); err != nil {
		return err
	}
	if !c.Follow {
		return nil
	}
	return followTranscript(g, a.File, s.Size, opt)
}

// followTranscript prints entries appended to the agent's session until
// interrupted, through the shared live tail.
func followTranscript(g *Globals, file string, from int64, opt subagent.RenderOptions) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	events, err := session.Tail(ctx, file, from)
	if err != nil {
		return i18n.Errorf("follow %s: %w", file, err)
	}
	fmt.Fprint(g.stderr, i18n.T("following %s (ctrl+c stops)\n", sanitize.Line(file)))
	for ev := range events {
		switch ev.Kind {
		case session.TailReset:
			fmt.Fprintln(g.stderr, i18n.T("the session file was truncated or replaced; following it from its start"))
		case session.TailError:
			if errors.Is(ev.Err, session.ErrLineTooLong) {
				fmt.Fprint(g.stderr, i18n.T("skipped an over-long line at byte %d\n", ev.Offset))
			} else {
				fmt.Fprint(g.stderr, i18n.T("follow: %s\n", sanitize.Line(fmt.Sprint(ev.Err))))
			}
		case session.TailLines:
			for _, l := range ev.Lines {
				e, err := session.ParseEntryLine(l.Data, 0)
				if err != nil || e.Type == session.TypeSession {
					continue // skipped as Pi skips it
				}
				if err := subagent.RenderText(g.stdout, []subagent.TranscriptItem{{Entry: e}}, opt); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
