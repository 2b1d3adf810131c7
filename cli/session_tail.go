package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// SessionTailCmd follows a session file that Pi is writing.
type SessionTailCmd struct {
	File      string `arg:"" optional:"" help:"Session: a file (.jsonl), a session id or a unique prefix of one (default: the newest session of the project, named on stderr)." predictor:"session"`
	Lines     int    `short:"n" name:"lines" default:"10" placeholder:"N" help:"Print the last N entries first, then follow (0: only new entries)."`
	FromStart bool   `name:"from-start" help:"Print every existing entry first (the whole file), then follow."`
	JSON      bool   `name:"json" help:"Print each new entry line as written (JSONL), with control and format characters and invalid UTF-8 as \\uXXXX escapes (the same JSON values, safe for a terminal)."`
}

// tailContext is how long a tail follows: until interrupted (tests stop
// it themselves).
var tailContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// Run prints the last --lines entries, then new entries as they are
// appended, until interrupted.
func (c *SessionTailCmd) Run(g *Globals) error {
	file, err := g.namedSession(c.File, "FILE", readsSession)
	if err != nil {
		return err
	}
	c.File = file
	if c.Lines < 0 {
		return failErr(exitUsage, i18n.Errorf("--lines must be 0 or more"))
	}
	if _, err := os.Stat(c.File); err != nil {
		return fail(exitUsage, "%v", err)
	}
	var from int64
	if !c.FromStart {
		if from, err = session.LastLinesOffset(c.File, c.Lines); errors.Is(err, session.ErrNotRegular) {
			return fail(exitRefused, "%v", err)
		} else if err != nil {
			return err
		}
	}
	ctx, stop := tailContext()
	defer stop()
	events, err := session.Tail(ctx, c.File, from)
	if errors.Is(err, session.ErrNotRegular) {
		return fail(exitRefused, "%v", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(g.stderr, i18n.T("following %s (ctrl+c stops)\n", sanitize.Line(c.File)))
	for ev := range events {
		switch ev.Kind {
		case session.TailReset:
			fmt.Fprintln(g.stderr, i18n.T("file was truncated or replaced; reading it again from the start"))
		case session.TailError:
			if errors.Is(ev.Err, session.ErrLineTooLong) {
				fmt.Fprint(g.stderr, i18n.T("skipped an over-long line at byte %d\n", ev.Offset))
			} else {
				fmt.Fprintf(g.stderr, "tail: %v\n", ev.Err) //i18n:raw the command's name before the reader's error
			}
		case session.TailLines:
			for _, l := range ev.Lines {
				c.printLine(g.stdout, l)
			}
		}
	}
	return nil
}

func (c *SessionTailCmd) printLine(w io.Writer, l session.TailLine) {
	if c.JSON {
		io.WriteString(w, string(l.Data)+"\n") // escaped by the JSON writer (output.go)
		return
	}
	e, err := session.ParseEntryLine(l.Data, 0)
	if err != nil {
		return // blank or malformed: skipped as Pi skips it
	}
	if e.Type == session.TypeSession {
		fmt.Fprint(w, i18n.T("── session %s ──\n", sanitize.Clip(e.ID, 60)))
		return
	}
	sum := session.DescribeEntry(e)
	tokens := ""
	if sum.Tokens > 0 {
		tokens = fmt.Sprintf("  (%d tok)", sum.Tokens) //i18n:raw a figure; "tok" stays in every language, as "tokens" does
	}
	stamp := "--:--:--"
	if ms := e.TimestampMs(); ms == ms {
		stamp = time.UnixMilli(int64(ms)).Local().Format("15:04:05")
	}
	fmt.Fprintf(w, "%s %-8s %-13s %s%s\n", stamp, sanitize.Clip(e.ID, 8), sanitize.Clip(sum.Kind, 13), sanitize.Clip(sum.Text, 120), tokens)
}
