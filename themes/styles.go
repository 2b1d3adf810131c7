package themes

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
)

// Styles is every lipgloss style the UI uses, derived from one Palette.
// Components read styles.X.Y and never call lipgloss.Color themselves.
type Styles struct {
	Palette Palette
	// IsDark tells components which glamour base the markdown style uses.
	IsDark bool

	App struct {
		Header, HeaderKey, HeaderValue lipgloss.Style
		Footer, Status, Error          lipgloss.Style
		Tab, TabActive, TabGap         lipgloss.Style
	}
	Pane struct {
		Border, BorderFocused lipgloss.Style
		Title, TitleFocused   lipgloss.Style
		Placeholder           lipgloss.Style
	}
	List struct {
		Item, Selected, SelectedBlurred, Dim, Match lipgloss.Style
	}
	Text struct {
		Normal, Subtle, Muted, Strong              lipgloss.Style
		Success, Warning, Danger, Info, Code, Link lipgloss.Style
	}
	Badge struct {
		Project, Global, Error, Warning, Info, Active lipgloss.Style
	}
	Role struct {
		User, Assistant, Tool, System, Thinking lipgloss.Style
	}
	Diff struct {
		Add, Del, AddLine, DelLine, Hunk, Context, LineNo lipgloss.Style
		// Modified and Same colour those block statuses (Add and Del colour
		// added and removed blocks); Boundary draws the cache boundary rule.
		Modified, Same, Boundary lipgloss.Style
	}
	Dialog struct {
		Box, Title lipgloss.Style
	}
	// Help is handed to bubbles/help so generated help matches the theme.
	Help help.Styles
}

// New builds the Styles for a palette. isDark selects the glamour base.
func New(p Palette, isDark bool) Styles {
	var s Styles
	s.Palette, s.IsDark = p, isDark
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }

	s.App.Header = lipgloss.NewStyle().Foreground(p.Text).Padding(0, 1)
	s.App.HeaderKey = fg(p.Muted)
	s.App.HeaderValue = fg(p.Text).Bold(true)
	s.App.Footer = fg(p.Subtle).Padding(0, 1)
	s.App.Status = fg(p.Info)
	s.App.Error = fg(p.Danger).Bold(true)
	s.App.Tab = fg(p.Subtle).Padding(0, 1)
	s.App.TabActive = lipgloss.NewStyle().Foreground(p.SelectionF).Background(p.SelectionBg).Bold(true).Underline(true).Padding(0, 1)
	s.App.TabGap = fg(p.Border)

	s.Pane.Border = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border)
	s.Pane.BorderFocused = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.BorderFocus)
	s.Pane.Title = fg(p.Subtle).Bold(true)
	s.Pane.TitleFocused = fg(p.Primary).Bold(true)
	s.Pane.Placeholder = fg(p.Muted).Italic(true)

	s.List.Item = fg(p.Text)
	s.List.Selected = lipgloss.NewStyle().Foreground(p.SelectionF).Background(p.SelectionBg).Bold(true).Reverse(isMono(p))
	// Under NO_COLOR the cursor row is reverse video in the focused pane
	// and underlined elsewhere, so it never looks like a bold row.
	s.List.SelectedBlurred = fg(p.Primary).Bold(true).Underline(isMono(p))
	s.List.Dim = fg(p.Muted)
	s.List.Match = fg(p.Highlight).Underline(true)

	s.Text.Normal = fg(p.Text)
	s.Text.Subtle = fg(p.Subtle)
	s.Text.Muted = fg(p.Muted).Faint(isMono(p))
	s.Text.Strong = fg(p.Text).Bold(true)
	s.Text.Success = fg(p.Success)
	s.Text.Warning = fg(p.Warning)
	s.Text.Danger = fg(p.Danger).Bold(isMono(p))
	s.Text.Info = fg(p.Info)
	s.Text.Code = fg(p.Code).Italic(isMono(p)) // markdown code keeps its backticks
	s.Text.Link = fg(p.Link).Underline(true)

	badge := func(c color.Color) lipgloss.Style { return fg(c).Bold(true) }
	s.Badge.Project = badge(p.ScopeProject)
	s.Badge.Global = badge(p.ScopeGlobal)
	s.Badge.Error = badge(p.Danger)
	s.Badge.Warning = badge(p.Warning)
	s.Badge.Info = badge(p.Info)
	s.Badge.Active = badge(p.Accent)

	s.Role.User = fg(p.RoleUser).Bold(true)
	s.Role.Assistant = fg(p.RoleAssistant).Bold(true)
	s.Role.Tool = fg(p.RoleTool)
	s.Role.System = fg(p.RoleSystem)
	s.Role.Thinking = fg(p.Thinking).Italic(true)

	s.Diff.Add = fg(p.DiffAdd)
	s.Diff.Del = fg(p.DiffDel)
	s.Diff.AddLine = lipgloss.NewStyle().Foreground(p.DiffAdd).Background(p.DiffAddBg)
	s.Diff.DelLine = lipgloss.NewStyle().Foreground(p.DiffDel).Background(p.DiffDelBg)
	s.Diff.Hunk = fg(p.DiffHunk)
	s.Diff.Context = fg(p.DiffContext)
	s.Diff.LineNo = fg(p.Muted)
	s.Diff.Modified = fg(p.Warning)
	s.Diff.Same = fg(p.Muted)
	s.Diff.Boundary = fg(p.Accent).Bold(true)

	s.Dialog.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.BorderFocus).Padding(0, 1)
	s.Dialog.Title = fg(p.Primary).Bold(true)

	s.Help = help.Styles{
		ShortKey:       fg(p.Subtle).Bold(true),
		ShortDesc:      fg(p.Muted),
		ShortSeparator: fg(p.Border),
		Ellipsis:       fg(p.Muted),
		FullKey:        fg(p.Primary).Bold(true),
		FullDesc:       fg(p.Subtle),
		FullSeparator:  fg(p.Border),
	}
	return s
}

// For returns the styles for a theme mode given what the terminal reported and
// whether NO_COLOR is set; it is the one call a theme switch needs.
func For(m Mode, hasDarkBackground, noColor bool) Styles {
	resolved := m.Resolve(hasDarkBackground)
	return New(PaletteFor(resolved, noColor), resolved == Dark)
}

func isMono(p Palette) bool { return p.Name == "mono" }

// Markdown returns the glamour style that matches the palette: the stock dark
// or light layout with its colours replaced by the palette's roles, so
// rendered markdown sits in the same colour scheme as the chrome.
func (s Styles) Markdown() ansi.StyleConfig {
	p := s.Palette
	if isMono(p) {
		return asciiMarkdown()
	}
	cfg := baseMarkdown(s.IsDark)
	col := func(c color.Color) *string { h := hexOf(c); return &h }
	cfg.Document.Color = col(p.Text)
	cfg.Heading.Color = col(p.Primary)
	cfg.H1.Color = col(p.SelectionF)
	cfg.H1.BackgroundColor = col(p.SelectionBg)
	cfg.Link.Color = col(p.Link)
	cfg.LinkText.Color = col(p.Link)
	cfg.Code.Color = col(p.Accent)
	cfg.Code.BackgroundColor = col(p.Surface)
	cfg.BlockQuote.Color = col(p.Subtle)
	cfg.HorizontalRule.Color = col(p.Border)
	cfg.Item.Color = col(p.Text)
	cfg.Enumeration.Color = col(p.Secondary)
	cfg.Strong.Color = col(p.Text)
	cfg.Emph.Color = col(p.Subtle)
	if cfg.CodeBlock.Chroma != nil {
		cfg.CodeBlock.Chroma.Text.Color = col(p.Code)
	}
	return cfg
}

// hexOf renders a colour as #rrggbb for glamour, which takes strings.
func hexOf(c color.Color) string {
	r, g, b, _ := c.RGBA()
	const digits = "0123456789abcdef"
	out := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, v := range []uint32{r >> 8, g >> 8, b >> 8} {
		out[1+2*i] = digits[v>>4]
		out[2+2*i] = digits[v&0xf]
	}
	return string(out)
}
