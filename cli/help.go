package cli

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/forgebench/forgebench/i18n"
)

// Help in the run's language. The texts of `--help` are the kong tags'
// help:"…" strings, which are catalog keys as they are written (the i18n
// tests collect them from the struct tags of cli/). English is kong's own
// printer, byte for byte. Another language is laid out here in kong's
// compact form, because kong's printer can translate neither its own words
// ("Usage:", "Flags:", "Commands:") nor wrap text that has no spaces, as
// Chinese has none: the text is looked up by its tag (before kong
// interpolated ${…} into it), and wrapped by display width.

// helpIndent and helpColumnPadding are kong's.
const (
	helpIndent        = 2
	helpColumnPadding = 4
)

// kongHelpFlag is the help of kong's own -h/--help flag.
var kongHelpFlag = i18n.Mark("Show context-sensitive help.")

// helpPrinter is the kong.HelpPrinter of every run.
func helpPrinter(options kong.HelpOptions, ctx *kong.Context) error {
	if i18n.Current() == i18n.English {
		return kong.DefaultHelpPrinter(options, ctx)
	}
	if ctx.Empty() {
		options.Summary = false
	}
	h := &helpText{width: helpWidth(ctx.Stdout), summary: options.Summary}
	app := ctx.Model
	if selected := ctx.Selected(); selected == nil {
		h.line(0, i18n.T("Usage: %s", localUsage(app.Name+app.Summary())))
		h.detail(app.Node)
		if len(app.Leaves(true)) > 0 && app.HelpFlag != nil {
			h.line(0, "")
			if options.Summary {
				h.line(0, i18n.T(`Run "%s --help" for more information.`, app.Name))
			} else {
				h.line(0, i18n.T(`Run "%s <command> --help" for more information on a command.`, app.Name))
			}
		}
	} else {
		h.line(0, i18n.T("Usage: %s", localUsage(app.Name+" "+selected.Summary())))
		h.detail(selected)
		if options.Summary && app.HelpFlag != nil {
			h.line(0, "")
			h.line(0, i18n.T(`Run "%s --help" for more information.`, selected.FullPath()))
		}
	}
	_, err := io.WriteString(ctx.Stdout, strings.Join(h.lines, "\n")+"\n")
	return err
}

// localUsage translates the placeholders kong writes into a usage line.
func localUsage(usage string) string {
	usage = strings.ReplaceAll(usage, "<command>", i18n.T("<command>"))
	return strings.ReplaceAll(usage, "[flags]", i18n.T("[flags]"))
}

// helpWidth is the width kong would wrap at: $COLUMNS, else the terminal's,
// else 80.
func helpWidth(w io.Writer) int {
	if cols, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && cols > 0 {
		return cols
	}
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

// helpText collects the lines of one help page.
type helpText struct {
	width   int
	summary bool
	lines   []string
}

func (h *helpText) line(indent int, s string) {
	h.lines = append(h.lines, strings.TrimRight(strings.Repeat(" ", indent)+s, " "))
}

// wrap adds text wrapped to the width left after indent.
func (h *helpText) wrap(indent int, text string) {
	for _, l := range wrapLines(text, h.width-indent) {
		h.line(indent, l)
	}
}

// detail is kong's printNodeDetail in compact form: the node's help,
// its arguments, its flags and the commands under it.
func (h *helpText) detail(node *kong.Node) {
	if help := nodeHelp(node); help != "" {
		h.line(0, "")
		h.wrap(0, help)
	}
	if h.summary {
		return
	}
	if node.Detail != "" {
		h.line(0, "")
		h.wrap(0, i18n.T(node.Detail))
	}
	if len(node.Positional) > 0 {
		h.line(0, "")
		h.line(0, i18n.T("Arguments:"))
		var rows [][2]string
		for _, arg := range node.Positional {
			rows = append(rows, [2]string{arg.Summary(), valueHelp(arg)})
		}
		h.columns(helpIndent, rows)
	}
	if groups := node.AllFlags(true); len(groups) > 0 {
		h.line(0, "")
		h.line(0, i18n.T("Flags:"))
		h.columns(helpIndent, flagRows(groups))
	}
	var rows [][2]string
	for _, cmd := range node.Leaves(true) {
		if !cmd.Hidden {
			rows = append(rows, [2]string{cmd.Path(), nodeHelp(cmd)})
		}
	}
	if len(rows) > 0 {
		h.line(0, "")
		h.line(0, i18n.T("Commands:"))
		h.columns(helpIndent, rows)
	}
}

// flagRows are kong's flag rows: a blank row between the flags of each
// level of the command path, short flags aligned when any flag has one.
func flagRows(groups [][]*kong.Flag) [][2]string {
	haveShort := false
	for _, group := range groups {
		for _, f := range group {
			haveShort = haveShort || f.Short != 0
		}
	}
	var rows [][2]string
	for i, group := range groups {
		if i > 0 {
			rows = append(rows, [2]string{"", ""})
		}
		for _, f := range group {
			if !f.Hidden {
				rows = append(rows, [2]string{flagName(haveShort, f), valueHelp(f.Value)})
			}
		}
	}
	return rows
}

// flagName is kong's formatFlag: "-h, --help", "    --cwd=DIR", "--[no-]x".
func flagName(haveShort bool, f *kong.Flag) string {
	short := ""
	if f.Short != 0 {
		short = "-" + string(f.Short) + ", "
	} else if haveShort {
		short = "    "
	}
	name := f.Name
	switch {
	case f.IsBool() && f.Tag.Negatable == "_":
		name = "[no-]" + name
	case f.IsBool() && f.Tag.Negatable != "":
		name += "/" + f.Tag.Negatable
	}
	out := short + "--" + name
	if !f.IsBool() && !f.IsCounter() {
		out += "=" + f.FormatPlaceHolder()
	}
	return out
}

// columns is kong's writeTwoColumns, measured in display width: the left
// column as wide as its widest entry below 37.5% of the page (at least
// 30), the help wrapped beside it.
func (h *helpText) columns(indent int, rows [][2]string) {
	width := h.width - indent
	maxLeft := max(375*width/1000, 30)
	left := 0
	for _, r := range rows {
		if w := ansi.StringWidth(r[0]); w > left && w < maxLeft {
			left = w
		}
	}
	for _, r := range rows {
		lines := wrapLines(r[1], width-left-helpColumnPadding)
		first := r[0]
		if ansi.StringWidth(r[0]) < maxLeft {
			first += strings.Repeat(" ", left-ansi.StringWidth(r[0])+helpColumnPadding)
			if len(lines) > 0 {
				first += lines[0]
				lines = lines[1:]
			}
		}
		h.line(indent, first)
		for _, l := range lines {
			h.line(indent, strings.Repeat(" ", left+helpColumnPadding)+l)
		}
	}
}

// wrapLines wraps text to width display columns: between words, and
// between the characters of Chinese text, which has no spaces, but never
// before a closing punctuation mark nor after an opening one. A word wider
// than the line is cut.
func wrapLines(text string, width int) []string {
	width = max(width, 20)
	var lines []string
	line, lineWidth := "", 0
	for _, u := range wrapUnits(text) {
		sep := ""
		if u.space && line != "" {
			sep = " "
		}
		w := ansi.StringWidth(u.text)
		if line != "" && lineWidth+len(sep)+w > width {
			lines = append(lines, line)
			line, lineWidth, sep = "", 0, ""
		}
		for w > width { // a path or a URL longer than the line
			cut := ansi.Truncate(u.text, width, "")
			lines = append(lines, cut)
			u.text = u.text[len(cut):]
			w = ansi.StringWidth(u.text)
		}
		line += sep + u.text
		lineWidth += len(sep) + w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// wrapUnit is a piece of text a line may not break inside: a word, or one
// wide (Chinese) character with the punctuation that must stay with it.
type wrapUnit struct {
	text  string
	space bool // white space before it
}

// wrapUnits cuts text into wrapUnits.
func wrapUnits(text string) []wrapUnit {
	var units []wrapUnit
	var word strings.Builder
	space, open := false, ""
	flush := func() {
		if word.Len() > 0 {
			units = append(units, wrapUnit{open + word.String(), space})
			word.Reset()
			space, open = false, ""
		}
	}
	for _, r := range text {
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			flush()
			space = space || len(units) > 0 || open != ""
		case strings.ContainsRune("，。、：；！？）》」』", r) && (word.Len() > 0 || open == "" && len(units) > 0):
			if word.Len() > 0 { // stays on the line of what it closes
				word.WriteRune(r)
			} else {
				units[len(units)-1].text += string(r)
			}
		case strings.ContainsRune("（《「『", r):
			flush()
			open += string(r)
		case ansi.StringWidth(string(r)) == 2:
			flush()
			units = append(units, wrapUnit{open + string(r), space})
			space, open = false, ""
		default:
			word.WriteRune(r)
		}
	}
	flush()
	if open != "" {
		units = append(units, wrapUnit{open, space})
	}
	return units
}

// nodeHelp is a command's help in the run's language, looked up by its
// tag as written.
func nodeHelp(node *kong.Node) string {
	if node.Tag == nil || node.Tag.Help == "" {
		return i18n.T(node.Help) // the application: kong.Description, marked in Run
	}
	return localHelp(node.Tag.Help, node.Help)
}

// valueHelp is a flag's or an argument's help in the run's language, with
// kong's suffix of its environment variables.
func valueHelp(v *kong.Value) string {
	local := *v
	local.Help = localHelp(v.OrigHelp, v.Help)
	return kong.DefaultHelpValueFormatter(&local)
}

// localHelp translates a help tag as written (tag, with ${var} and $$)
// and interpolates it as kong did; interpolated is kong's English, printed
// when the catalog has no translation.
func localHelp(tag, interpolated string) string {
	local := i18n.T(tag)
	if local == tag {
		return interpolated
	}
	return interpolateHelp(local)
}

// interpolateHelp does kong's interpolation of a translated help text:
// $$ is a dollar sign, {leaf_help} the translated leaf help (a translation
// writes kong's ${leaf_help} without its dollar sign: x/text's catalog
// reads ${name} as a variable of its own).
func interpolateHelp(s string) string {
	s = strings.ReplaceAll(s, "{leaf_help}", i18n.T(leafHelp)) //i18n:raw a kong variable
	return strings.ReplaceAll(s, "$$", "$")
}
