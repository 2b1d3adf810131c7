package find

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/ui/common"
)

// queryLine is the view's top line as a sub-model: the query being typed,
// its editor and the four search options. It owns the typing pause: an
// edit (a key, a paste, an option toggled, the query cleared) schedules a
// debounceMsg numbered seq, and only the newest one counts (current). It
// never searches itself; the view asks it for the query (signature) when
// the pause is over or enter is pressed.
type queryLine struct {
	com *common.Common

	query                           string
	line                            common.LineInput // query's editor: the kit's text keys and cursor
	regex, sensitive, agents, every bool
	seq                             int // edits, for the debounce
}

func (q *queryLine) keys() *keymap.Find { return &q.com.Keys.FindView }

// Update takes a key press or a paste: the option keys toggle their
// option, the clear key empties the query, anything else is typed into
// it. Each change schedules the search of the new query.
func (q *queryLine) Update(msg tea.Msg) tea.Cmd {
	k := q.keys()
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(msg, k.Regex):
			q.regex = !q.regex
			return q.edited()
		case key.Matches(msg, k.Case):
			q.sensitive = !q.sensitive
			return q.edited()
		case key.Matches(msg, k.Agents):
			q.agents = !q.agents
			return q.edited()
		case key.Matches(msg, k.AllProjects):
			q.every = !q.every
			return q.edited()
		case key.Matches(msg, k.Clear):
			q.query = ""
			q.line.SetValue("")
			return q.edited()
		}
	}
	changed, cmd := q.line.Key(msg, common.TextKeys(q.com))
	if changed {
		q.query = q.line.Value()
		return tea.Batch(cmd, q.edited())
	}
	return cmd
}

// edited schedules a search of the new query once typing pauses.
func (q *queryLine) edited() tea.Cmd {
	q.seq++
	if !q.searchable() {
		return nil
	}
	return q.com.Later(debounce, debounceMsg{seq: q.seq})
}

// current reports whether a typing pause is the one after the last edit.
func (q *queryLine) current(msg debounceMsg) bool { return msg.seq == q.seq }

// searchable reports whether the query is long enough to search while
// typing (enter searches any non-empty query).
func (q *queryLine) searchable() bool { return len([]rune(q.query)) >= minQuery }

// signature identifies the query and options a result set answers.
func (q *queryLine) signature() string {
	return fmt.Sprint(q.query, q.regex, q.sensitive, q.agents, q.every)
}

// View draws the query with its cursor on the left and the options on
// the right of a line width cells wide.
func (q *queryLine) View(width int) string {
	st := &q.com.Styles
	opt := func(on bool, name string) string {
		if on {
			return st.Badge.Active.Render("[" + name + "]")
		}
		return st.Text.Muted.Render(" " + name + " ")
	}
	opts := strings.Join([]string{opt(q.regex, i18n.T("regex")), opt(q.sensitive, i18n.T("case")), opt(q.agents, i18n.T("agents")),
		opt(q.every, i18n.T("all projects"))}, " ")
	in := st.Text.Info.Render("/ ") + q.line.View(st, true)
	gap := max(1, width-ansi.StringWidth(in)-ansi.StringWidth(opts))
	return in + strings.Repeat(" ", gap) + opts
}
