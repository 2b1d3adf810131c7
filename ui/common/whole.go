package common

import (
	"os"
	"os/exec"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
)

// Nothing on screen is cut without a way to read it (issue 21): every
// panel names the thing under its focus as a Whole, and three keys of the
// grammar (docs/KEYS.md) act on it the same way everywhere — copy (y) puts
// it on the clipboard, view whole (v) shows it in the scrollable overlay
// (Viewer, drawn by the root), pager (o) opens it in $PAGER.

// Whole is the thing under a panel's focus, whole: an entry, a block and
// its cause, a preview, an agent's detail. Title says what it is ("entry
// 33a03556", "the cause of block 3"); Text is the text, or Load computes
// it (decoding an entry, rebuilding a context) and then runs in a command,
// never in Update. Note is the pane's status line, whole: the overlay
// shows it above the text (a status is cut to its line on screen); copy
// and the pager leave it out.
type Whole struct {
	Title string
	Text  string
	Load  func() (string, error)
	Note  string
}

// text is the Whole's text, loaded when it has a Load.
func (w Whole) text() (string, error) {
	if w.Load == nil {
		return w.Text, nil
	}
	return w.Load()
}

// Clipboard puts text on the system clipboard through the terminal (OSC
// 52). The text is sanitised first (escape sequences and control
// characters dropped, tabs as spaces): a clipboard ends up pasted into a
// terminal.
func Clipboard(text string) tea.Cmd { return tea.SetClipboard(sanitize.Text(text)) }

// CopiedNote is the status a copy leaves: what was copied and how much.
func CopiedNote(title, text string) string {
	return i18n.T("copied %s (%d chars)", title, len([]rune(sanitize.Text(text))))
}

// NothingHere is the status of y, v or o where nothing is focused.
func NothingHere() string { return i18n.T("nothing to copy or show here") }

// Copy copies w: it loads the text when needed, puts it on the clipboard
// and hands report the note for the panel's own status line (or the
// error); report makes the panel's message, so the note lands in the pane
// that asked. Everything runs in the command.
func Copy(w Whole, report func(note string, err error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		text, err := w.text()
		if err != nil {
			return report("", i18n.Errorf("copy %s: %w", w.Title, err))
		}
		return tea.BatchMsg{Clipboard(text), func() tea.Msg { return report(CopiedNote(w.Title, text), nil) }}
	}
}

// ViewWholeMsg asks the root to show a Whole in the overlay (Err: it
// could not be loaded, which the root reports).
type ViewWholeMsg struct {
	Whole Whole
	Err   error
}

// ShowWhole loads w when needed and asks the root to show it whole.
func ShowWhole(w Whole) tea.Cmd {
	return func() tea.Msg {
		text, err := w.text()
		if err != nil {
			return ViewWholeMsg{Whole: w, Err: i18n.Errorf("show %s: %w", w.Title, err)}
		}
		w.Text, w.Load = text, nil
		return ViewWholeMsg{Whole: w}
	}
}

// PagerDoneMsg says the pager ended: Err is why it could not run (no
// pager at all, a failed load) or how it exited; the root reports it.
type PagerDoneMsg struct {
	Pager string
	Err   error
}

// ErrNoPager is the answer when $PAGER is unset and less is not found.
var ErrNoPager error = noPagerError{}

// noPagerError is ErrNoPager: its text is in the language of the moment
// it is shown.
type noPagerError struct{}

func (noPagerError) Error() string {
	return i18n.T("no pager: $PAGER is unset and less is not installed")
}

// pagerArgs resolves the pager: $PAGER split into words (a program and
// its flags, "less -R"), else less. getenv and lookPath are the
// environment (os.Getenv, exec.LookPath in the program).
func pagerArgs(getenv func(string) string, lookPath func(string) (string, error)) ([]string, error) {
	args := strings.Fields(getenv("PAGER"))
	if len(args) == 0 {
		if _, err := lookPath("less"); err != nil {
			return nil, ErrNoPager
		}
		return []string{"less"}, nil
	}
	if _, err := lookPath(args[0]); err != nil {
		return nil, i18n.Errorf("$PAGER %s: %w", args[0], err)
	}
	return args, nil
}

// Page opens w in the user's pager: $PAGER (a program and its flags),
// else less; the text is its standard input. The terminal is handed over
// as for $EDITOR (tea.ExecProcess, or Common.Exec in tests) and comes
// back when the pager quits; a PagerDoneMsg follows.
func (c *Common) Page(w Whole) tea.Cmd {
	run := c.Exec
	if run == nil {
		run = tea.ExecProcess
	}
	return func() tea.Msg {
		text, err := w.text()
		if err != nil {
			return PagerDoneMsg{Err: i18n.Errorf("page %s: %w", w.Title, err)}
		}
		args, err := pagerArgs(os.Getenv, exec.LookPath)
		if err != nil {
			return PagerDoneMsg{Err: err}
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdin = strings.NewReader(sanitize.Text(text))
		name := args[0]
		return run(cmd, func(err error) tea.Msg {
			if err != nil {
				err = i18n.Errorf("pager %s: %w", name, err)
			}
			return PagerDoneMsg{Pager: name, Err: err}
		})()
	}
}

// FocusKey answers the three keys every panel gives the thing under its
// focus, from the global bindings: copy puts it on the clipboard (report
// makes the panel's status message, see Copy), view whole shows it in the
// overlay, pager opens it in $PAGER. focused names that thing (ok false:
// nothing here, and note says so). handled is false for any other key.
func (c *Common) FocusKey(msg tea.KeyPressMsg, focused func() (Whole, bool), report func(note string, err error) tea.Msg) (cmd tea.Cmd, note string, handled bool) {
	k := c.Keys
	if k == nil || !key.Matches(msg, k.Copy, k.View, k.Pager) {
		return nil, "", false
	}
	w, ok := focused()
	if !ok {
		return nil, NothingHere(), true
	}
	switch {
	case key.Matches(msg, k.Copy):
		return Copy(w, report), "", true
	case key.Matches(msg, k.View):
		return ShowWhole(w), "", true
	}
	return c.Page(w), "", true
}

// CopiedMsg reports a copy the kit made for the panel at index Owner
// (PanelPresets …): what was copied, or why not. Every panel receives
// every command result and acts on its own.
type CopiedMsg struct {
	Owner int
	Note  string
	Err   error
}

// Status is the status line a copy leaves: its note, or its error.
func (m CopiedMsg) Status() (text string, isErr bool) {
	if m.Err != nil {
		return m.Err.Error(), true
	}
	return m.Note, false
}

// AnswerFocusKey is FocusKey for the panel at index owner whose status
// line setStatus writes: "nothing here" goes there at once, and the copy
// reports back as a CopiedMsg for owner. ok is false for any other key.
func (c *Common) AnswerFocusKey(owner int, msg tea.KeyPressMsg, focused func() (Whole, bool), setStatus func(string, bool)) (tea.Cmd, bool) {
	cmd, note, ok := c.FocusKey(msg, focused, func(note string, err error) tea.Msg { return CopiedMsg{Owner: owner, Note: note, Err: err} })
	if note != "" {
		setStatus(note, false)
	}
	return cmd, ok
}
