package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/kong"
	"github.com/muesli/mango"
	"github.com/muesli/roff"
)

// The manual page, forgebench(1), is generated from the kong tree — every
// command, argument and flag with its help — by muesli/mango, which lays
// out and escapes the roff; the sections kong does not hold (exit status,
// environment, files) are written here. Release builds install it from
// `forgebench man` (.goreleaser.yaml). The page is English whatever the
// language of the run: it is a file installed by packages, built once, and
// its text must not depend on the locale of the machine that built it.

// ManCmd prints the manual page.
type ManCmd struct{}

// Run prints forgebench(1) as roff (view it with: forgebench man | man -l -).
func (c *ManCmd) Run(ctx *kong.Context, g *Globals) error {
	_, err := fmt.Fprint(g.stdout, manPage(ctx.Model, manDate(os.Getenv)))
	return err
}

// manDate is the page's date: $SOURCE_DATE_EPOCH when set (reproducible
// builds), else the build date of a release, else today.
func manDate(getenv func(string) string) time.Time {
	if s, err := strconv.ParseInt(getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(s, 0).UTC()
	}
	if d, err := time.Parse(time.RFC3339, date); err == nil {
		return d.UTC()
	}
	return time.Now().UTC()
}

// manPage lays out the page for app.
func manPage(app *kong.Application, date time.Time) string {
	page := mango.NewManPage(1, app.Name, "terminal workbench for the Pi coding agent with pi-forge and pi-subagent") //i18n:raw the manual page is English (ManCmd)
	page = page.WithLongDescription(app.Help + "\n" +
		"With no command, " + app.Name + " opens the full-screen workbench on the project in the current directory: " + //i18n:raw the manual page is English (ManCmd)
		"the Presets, Capabilities, Session, Payloads and Agents panels (press ? there for the keys). " + //i18n:raw the manual page is English (ManCmd)
		"The commands below do the same work from a shell or a script; those that print data have a --json form.\n" + //i18n:raw the manual page is English (ManCmd)
		"A session is named by its file, its id or a unique prefix of the id; a Preset, capability or profile by a selector: id, project:id or global:id.") //i18n:raw the manual page is English (ManCmd)
	for _, f := range app.Flags {
		if !f.Hidden {
			_ = page.Root.AddFlag(manFlag(f))
		}
	}
	for _, child := range app.Children {
		if !child.Hidden {
			_ = page.Root.AddCommand(manCommand(child))
		}
	}
	page = page.
		WithSection("Exit status", "0 success.\n"+ //i18n:raw the manual page is English (ManCmd)
			"1 the checked thing failed (a Preset with errors, a template that does not render, a changed payload with --fail-on-change).\n"+ //i18n:raw the manual page is English (ManCmd)
			"2 usage: a bad flag or argument, no such file, session, Preset, capability, profile or agent.\n"+ //i18n:raw the manual page is English (ManCmd)
			"3 conflict: the file changed since it was read (a stale revision, a session that ends elsewhere than --leaf).\n"+ //i18n:raw the manual page is English (ManCmd)
			"4 refused for safety: an untrusted project, a session that looks live.", //i18n:raw the manual page is English (ManCmd)
		).
		WithSection("Environment", "PI_CODING_AGENT_DIR: the Pi agent directory (default ~/.pi/agent), as --agent-dir.\n"+ //i18n:raw the manual page is English (ManCmd)
			"PI_FORGE_GLOBAL_DIR: the pi-forge global directory (default ~/.pi/forge), as --forge-dir.\n"+ //i18n:raw the manual page is English (ManCmd)
			"PI_CODING_AGENT_SESSION_DIR: a custom session directory, as Pi reads it.\n"+ //i18n:raw the manual page is English (ManCmd)
			"NO_COLOR: no colours in the workbench.\n"+ //i18n:raw the manual page is English (ManCmd)
			"XDG_CONFIG_HOME: where the settings file is (default ~/.config).\n"+ //i18n:raw the manual page is English (ManCmd)
			"LC_ALL, LC_MESSAGES, LANG: the language when neither --lang nor the settings file sets one (zh_CN and other Simplified Chinese locales: zh-CN; else English).", //i18n:raw the manual page is English (ManCmd)
		).
		WithSection("Files", "$XDG_CONFIG_HOME/forgebench/config.json: the settings file: the theme, the language and key bindings by name.\n"+ //i18n:raw the manual page is English (ManCmd)
			"<agent-dir>/sessions/: Pi's session files, one directory per project.\n"+ //i18n:raw the manual page is English (ManCmd)
			"<project>/.pi/forge/ and <forge-dir>/: the pi-forge library (prompt-stacks, capabilities, agent-profiles).", //i18n:raw the manual page is English (ManCmd)
		).
		WithSection("See also", "pi(1). forgebench completion bash|zsh|fish prints the shell completion scripts. The README has the full guide.") //i18n:raw the manual page is English (ManCmd)
	return page.Build(&manBuilder{Document: roff.NewDocument(), date: date})
}

// manCommand is one command with its subcommands, arguments and flags.
func manCommand(node *kong.Node) *mango.Command {
	var usage, text strings.Builder
	for _, a := range node.Positional {
		name := "<" + a.Name + ">"
		if a.IsCumulative() {
			name += "..."
		}
		if !a.Required {
			name = "[" + name + "]"
		}
		usage.WriteString(" " + name)
		fmt.Fprintf(&text, " %s: %s", name, a.Help)
	}
	help := node.Help
	if text.Len() > 0 {
		help += " Arguments:" + text.String() //i18n:raw the manual page is English (ManCmd)
	}
	cmd := mango.NewCommand(node.Path(), help, node.Path()+usage.String())
	for _, f := range node.Flags {
		if !f.Hidden {
			_ = cmd.AddFlag(manFlag(f))
		}
	}
	for _, child := range node.Children {
		if !child.Hidden {
			_ = cmd.AddCommand(manCommand(child))
		}
	}
	return cmd
}

// manFlag is one flag as "name=PLACEHOLDER" with its help.
func manFlag(f *kong.Flag) mango.Flag {
	out := mango.Flag{Name: strings.TrimPrefix(f.Summary(), "--"), Usage: f.Help, PFlag: true}
	if f.Short != 0 {
		out.Short = string(f.Short)
	}
	return out
}

// manBuilder is roff's document with forgebench's title line (name,
// section, date, source with the version, manual; mango's puts the
// description where the source goes), and text that may hold a "%" (roff
// formats text as a format string).
type manBuilder struct {
	*roff.Document
	date time.Time
	head string
}

// Heading keeps the title line; String puts it first.
func (b *manBuilder) Heading(section uint, title, _ string, _ time.Time) {
	b.head = fmt.Sprintf(".TH %s %d \"%s\" \"%s %s\" \"User Commands\"\n", //i18n:raw the manual page is English (ManCmd)
		strings.ToUpper(title), section, b.date.Format("2006-01-02"), title, version)
}

// String is the whole page, in ASCII: other characters (… → ·) are
// groff's \[uXXXX] escapes, which every groff reads whatever the
// input encoding (roff escaped the text's backslashes before).
func (b *manBuilder) String() string {
	var out strings.Builder
	for _, r := range b.head + strings.TrimPrefix(b.Document.String(), "\n") {
		if r < utf8.RuneSelf {
			out.WriteRune(r)
		} else {
			fmt.Fprintf(&out, "\\[u%04X]", r)
		}
	}
	return out.String()
}

func percent(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// Text writes text (roff escapes it).
func (b *manBuilder) Text(s string) { b.Document.Text(percent(s)) }

// TextBold writes bold text.
func (b *manBuilder) TextBold(s string) { b.Document.TextBold(percent(s)) }

// TextItalic writes italic text.
func (b *manBuilder) TextItalic(s string) { b.Document.TextItalic(percent(s)) }
