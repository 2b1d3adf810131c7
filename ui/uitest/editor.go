package uitest

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// FakeEditor is a common.ExternalEditor for tests: it records the text and
// file pattern it was handed (Given, Patterns) and answers with Reply's
// text, or Err, at once — no process, no terminal, no temporary file.
type FakeEditor struct {
	// Reply makes the editor's text from the text handed over (nil: the
	// text unchanged).
	Reply func(text string) string
	// Err, when set, is the hand-off's failure (the editor exited non-zero).
	Err error

	Given    []string
	Patterns []string
}

// ErrEditorFailed is a failure a test can give FakeEditor.Err.
var ErrEditorFailed = errors.New("editor exited with status 1")

// UseEditor puts a FakeEditor in com and returns it.
func UseEditor(com *common.Common, reply func(string) string) *FakeEditor {
	f := &FakeEditor{Reply: reply}
	com.Editor = f
	return f
}

// Edit implements common.ExternalEditor.
func (f *FakeEditor) Edit(text, pattern string, done func(string, error) tea.Msg) tea.Cmd {
	f.Given = append(f.Given, text)
	f.Patterns = append(f.Patterns, pattern)
	return func() tea.Msg {
		if f.Err != nil {
			return done("", f.Err)
		}
		if f.Reply == nil {
			return done(text, nil)
		}
		return done(f.Reply(text), nil)
	}
}
