package forms

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// prompt is a one-line text editor inside a form: a field's value, a new
// entry ("name = value"), a pattern. While open it takes every key.
type prompt struct {
	input textinput.Model
	err   string
	open  bool
	// width is the form's width (setWidth), which the input fits.
	width int
}

// start opens the prompt with a label before the text and the text to
// edit.
func (p *prompt) start(styles *themes.Styles, keys *keymap.TextEditor, label, value string) {
	p.input, p.err, p.open = newInput(styles, keys, label, value), "", true
	p.fit()
}

// setWidth lays the prompt out for a form width cells wide: the label and
// the cursor cell share the row with the text.
func (p *prompt) setWidth(width int) {
	p.width = width
	p.fit()
}

func (p *prompt) fit() {
	if p.open {
		p.input.SetWidth(max(4, p.width-ansiWidth(p.input.Prompt)-1))
	}
}

// submitFunc turns the prompt's text into the form's edit (nil: nothing
// to change), or refuses it with an error the prompt shows; key is the
// key that submitted (commit, or one of the extra keys).
type submitFunc func(text string, key tea.KeyPressMsg) (tea.Cmd, error)

// update handles msg while the prompt is open: cancel closes it; commit,
// or one of also, hands the text to submit, closing the prompt unless
// submit refuses it; any other message edits the text.
func (p *prompt) update(msg tea.Msg, k *keymap.Forms, submit submitFunc, also ...key.Binding) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, k.Cancel):
			p.open, p.err = false, ""
			return nil
		case key.Matches(kp, k.Commit), len(also) > 0 && key.Matches(kp, also...):
			cmd, err := submit(p.input.Value(), kp)
			if err != nil {
				p.err = err.Error()
				return nil
			}
			p.open, p.err = false, ""
			return cmd
		}
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.err = ""
	return cmd
}

// newInput builds a focused single-line editor with the kit's text keys
// and steady themed cursor (common.ApplyTextKeys, common.ApplyTextStyle):
// forms are re-created after every edit, so a blinking cursor would only
// add timer traffic and make views depend on time.
func newInput(styles *themes.Styles, keys *keymap.TextEditor, label, value string) textinput.Model {
	ti := textinput.New()
	s := textinput.DefaultStyles(styles.IsDark)
	s.Focused.Prompt = styles.Text.Subtle
	s.Focused.Text = styles.Text.Normal
	s.Blurred.Prompt = styles.Text.Subtle
	s.Blurred.Text = styles.Text.Normal
	ti.SetStyles(s)
	common.ApplyTextStyle(&ti, styles)
	common.ApplyTextKeys(&ti, keys)
	ti.Prompt = label
	ti.SetValue(value)
	ti.CursorEnd()
	ti.Focus()
	return ti
}
