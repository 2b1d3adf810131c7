package forms

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// rawForm is the Advanced view: the whole Preset (or agent profile) as
// JSON (the draft's own tree, so unknown keys and the user's order are
// there and survive), scrolled with the form keys, edited inline (enter) or
// in $EDITOR (the panel's e). While typing, every change that parses to a
// JSON object becomes the draft (one coalesced undo step) and is validated
// at once; text that does not parse leaves the draft as it was and the form
// points at the line and column of the problem.
type rawForm struct {
	base
	noun    string // what the JSON is: "Preset" or "profile"
	errs    int    // the draft's validation counts
	warns   int
	text    string // the draft as JSON
	lines   []string
	top     int
	editing bool
	ta      *textEditor
	problem string // the parse error of the text being typed ("" = parses)
	// width and height are the form's cells (SetSize).
	width, height int
}

// Nouns of the raw JSON view (ParseProblem's subject).
const (
	NounPreset  = "Preset" //i18n:raw the subject of pi-forge's "Preset root must be a JSON object."
	NounProfile = "profile"
)

// NewRawJSON shows the whole Preset draft as JSON.
func NewRawJSON(ctx Context, opts ...Option) Form {
	o := applyOptions(opts)
	f := &rawForm{base: newBase(ctx, o), noun: NounPreset, top: o.cursor.Row}
	f.errs, f.warns = f.ctx.Diagnostics.Count(preset.LevelError), f.ctx.Diagnostics.Count(preset.LevelWarning)
	f.setText(jsonv.StringifyIndent(f.ctx.Draft, "  "))
	return f
}

// NewProfileRawJSON shows an agent profile's whole tree as JSON: the same
// view and keys as the Preset's Advanced row.
func NewProfileRawJSON(ctx ProfileContext, opts ...Option) Form {
	o := applyOptions(opts)
	f := &rawForm{base: newBase(Context{Com: ctx.Com, Draft: jsonv.NewObject()}, o), noun: NounProfile, top: o.cursor.Row}
	f.RefreshProfile(ctx)
	return f
}

func (f *rawForm) setText(text string) {
	f.text = text
	f.lines = strings.Split(sanitize.Text(text), "\n")
}

// Refresh takes a new draft without losing the text being typed (the
// panel calls it instead of building a new form after an edit).
func (f *rawForm) Refresh(ctx Context) {
	f.ctx = newBase(ctx, options{keys: f.keys}).ctx
	f.errs, f.warns = f.ctx.Diagnostics.Count(preset.LevelError), f.ctx.Diagnostics.Count(preset.LevelWarning)
	if !f.editing {
		f.setText(jsonv.StringifyIndent(f.ctx.Draft, "  "))
	}
}

// RefreshProfile is Refresh for a profile's tree.
func (f *rawForm) RefreshProfile(ctx ProfileContext) {
	f.ctx.Draft = ctx.Tree
	if f.ctx.Draft == nil {
		f.ctx.Draft = jsonv.NewObject()
	}
	f.errs, f.warns = 0, 0
	for _, d := range ctx.Diagnostics {
		switch d.Level {
		case preset.LevelError:
			f.errs++
		case preset.LevelWarning:
			f.warns++
		}
	}
	if !f.editing {
		f.setText(jsonv.StringifyIndent(f.ctx.Draft, "  "))
	}
}

// StartWith opens the inline editor on text (the text $EDITOR returned
// that does not parse), with its problem shown.
func (f *rawForm) StartWith(text string) tea.Cmd {
	cmd := f.startEditing(text)
	f.problem = parseProblem(text, f.noun)
	return cmd
}

func (f *rawForm) startEditing(text string) tea.Cmd {
	f.ta = newTextEditor(&f.keys.Text, text)
	f.ta.setSize(f.width, rawEditorHeight(f.height))
	f.editing, f.problem = true, ""
	return nil
}

var offsetRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` at offset (\d+)$`) })

// ParseProblem is "" when text is a JSON object, else what is wrong and
// where: "invalid JSON at line L, column C: …", or "<Noun> root must be a
// JSON object." (noun: NounPreset or NounProfile).
func ParseProblem(text, noun string) string { return parseProblem(text, noun) }

func parseProblem(text, noun string) string {
	v, err := jsonv.Parse([]byte(text))
	if err == nil {
		if _, ok := v.(*jsonv.Object); ok {
			return ""
		}
		return strings.ToUpper(noun[:1]) + noun[1:] + " root must be a JSON object." //i18n:raw pi-forge's own message
	}
	msg := strings.TrimPrefix(err.Error(), jsonv.ErrSyntax.Error()+": ")
	if m := offsetRE().FindStringSubmatch(msg); m != nil && errors.Is(err, jsonv.ErrSyntax) {
		off, _ := strconv.Atoi(m[1])
		line, col := lineColOfByte(text, off)
		return i18n.T("invalid JSON at line %d, column %d: %s", line, col, strings.TrimSuffix(msg, m[0]))
	}
	return i18n.T("invalid JSON: %s", msg)
}

// lineColOfByte is the 1-based line and column (in characters) of a byte
// offset.
func lineColOfByte(text string, off int) (int, int) {
	off = min(max(off, 0), len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndex(before, "\n")+1:])) + 1
	return line, col
}

func (f *rawForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	kp, isKey := msg.(tea.KeyPressMsg)
	if f.editing {
		if isKey && key.Matches(kp, f.keys.Cancel) {
			// text that does not parse is dropped: the draft, which kept
			// its last valid state, is what the view shows again
			f.editing, f.problem = false, ""
			f.setText(jsonv.StringifyIndent(f.ctx.Draft, "  "))
			return f, nil
		}
		if !f.ta.update(msg) {
			return f, nil
		}
		return f, f.applyTyped()
	}
	if !isKey {
		return f, nil
	}
	page := max(1, f.height-4)
	switch {
	case key.Matches(kp, f.keys.Up):
		f.top--
	case key.Matches(kp, f.keys.Down):
		f.top++
	case key.Matches(kp, f.keys.PageUp):
		f.top -= page
	case key.Matches(kp, f.keys.PageDown):
		f.top += page
	case key.Matches(kp, f.keys.Top):
		f.top = 0
	case key.Matches(kp, f.keys.Bottom):
		f.top = len(f.lines)
	case key.Matches(kp, f.keys.Edit):
		return f, f.startEditing(f.text)
	}
	f.top = common.Clamp(f.top, 0, max(0, len(f.lines)-1))
	return f, nil
}

// applyTyped makes parsing text the draft (coalesced into one undo step).
func (f *rawForm) applyTyped() tea.Cmd {
	text := f.ta.Value()
	if f.problem = parseProblem(text, f.noun); f.problem != "" {
		return nil
	}
	v, _ := jsonv.Parse([]byte(text))
	msg := EditMsg{Path: Path{}, Value: v, Label: i18n.T("raw JSON"), Coalesce: true}
	return func() tea.Msg { return msg }
}

// Unparsed is what is wrong with the JSON being typed in a raw JSON form
// ("" when it parses, nothing is being typed, or f is another form): the
// draft kept its last valid state, so a save now would not be what the
// user sees.
func Unparsed(f Form) string {
	if r, ok := f.(*rawForm); ok && r.editing {
		return r.problem
	}
	return ""
}

// Text is the JSON the $EDITOR hand-off starts from: the text being typed
// when the editor is open, else the draft.
func (f *rawForm) Text() string {
	if f.editing {
		return f.ta.Value()
	}
	return f.text
}

// rawHead is the number of lines above the JSON: what it is, whether it
// parses, a blank line.
const rawHead = 3

// rawEditorHeight is the text editor's height in a form height lines tall.
func rawEditorHeight(height int) int { return max(1, height-rawHead) }

// SetSize implements Form: paging moves by the height, and the editor's
// window follows its cursor in the cells under the head.
func (f *rawForm) SetSize(width, height int) {
	f.width, f.height = width, height
	if f.ta != nil {
		f.ta.setSize(width, rawEditorHeight(height))
	}
}

func (f *rawForm) View(width, height int) string {
	st := f.styles
	var head []string
	status := st.Text.Success.Render(i18n.T("✓ valid JSON · %d error(s), %d warning(s) in the Preset", f.errs, f.warns))
	if f.noun == NounProfile {
		status = st.Text.Success.Render(i18n.T("✓ valid JSON · %d error(s), %d warning(s) in the profile", f.errs, f.warns))
	}
	if f.problem != "" {
		status = st.Text.Danger.Render(i18n.T("✗ %s — the draft keeps its last valid state", f.problem))
	}
	about := i18n.T("Advanced — the whole Preset as JSON; unknown keys are kept")
	if f.noun == NounProfile {
		about = i18n.T("Raw JSON — the whole profile file; pi-forge refuses keys it does not know")
	}
	head = append(head, st.Text.Subtle.Render(truncate(about, width)), truncate(status, width), "")
	bodyH := max(0, height-len(head))
	if f.editing {
		return common.Fit(append(head, f.ta.view(st, width, rawEditorHeight(height))...), width, height)
	}
	end := min(len(f.lines), f.top+bodyH)
	body := make([]string, 0, bodyH)
	for _, l := range f.lines[min(f.top, end):end] {
		body = append(body, truncate(l, width))
	}
	return common.Fit(append(head, body...), width, height)
}

func (f *rawForm) CapturesInput() bool { return f.editing }
func (f *rawForm) Title() string       { return i18n.T("Advanced · raw JSON") }

func (f *rawForm) cursor() Cursor { return Cursor{Row: f.top} }

func (f *rawForm) ShortHelp() []key.Binding {
	if f.editing {
		return []key.Binding{f.keys.Cancel}
	}
	return []key.Binding{f.keys.Up, f.keys.Down, f.keys.Top, f.keys.Bottom, f.keys.Edit}
}
