// Package themes turns one palette of semantic colours into every style the
// workbench draws with: the lipgloss Styles struct for chrome, lists and diffs,
// and the matching glamour style for markdown. Components read styles from
// here and never build colours themselves.
package themes

import (
	"fmt"
	"image/color"
	"os"

	"charm.land/lipgloss/v2"
)

// Mode selects a palette: Auto follows the terminal background (dark when the
// terminal does not answer), Dark and Light force one.
type Mode string

// The theme modes accepted by --theme.
const (
	Auto  Mode = "auto"
	Dark  Mode = "dark"
	Light Mode = "light"
)

// ParseMode validates a --theme value.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case Auto, Dark, Light:
		return Mode(s), nil
	case "":
		return Auto, nil
	}
	return "", fmt.Errorf("unknown theme %q: want auto, dark or light", s)
}

// Resolve picks the concrete palette for a mode given what the terminal
// reported; hasDark is ignored unless the mode is Auto.
func (m Mode) Resolve(hasDark bool) Mode {
	switch m {
	case Dark, Light:
		return m
	}
	if hasDark {
		return Dark
	}
	return Light
}

// Palette holds the semantic colour roles. Every style in the product is
// derived from these, so a theme is exactly one Palette value.
type Palette struct {
	Name string

	Base, Surface, Overlay  color.Color // backgrounds: screen, panes, dialogs
	Text, Subtle, Muted     color.Color // foregrounds: body, secondary, disabled
	Primary, Secondary      color.Color // accents: focus, selection
	Accent, Highlight       color.Color // badges, search matches
	Border, BorderFocus     color.Color
	SelectionBg, SelectionF color.Color
	Success, Warning        color.Color
	Danger, Info            color.Color
	DiffAdd, DiffDel        color.Color // line diff foregrounds
	DiffAddBg, DiffDelBg    color.Color // line diff backgrounds
	DiffHunk, DiffContext   color.Color
	RoleUser, RoleAssistant color.Color // transcript roles
	RoleTool, RoleSystem    color.Color
	Thinking, Code          color.Color
	ScopeProject            color.Color // scope badges
	ScopeGlobal             color.Color
	Link                    color.Color
}

func hex(s string) color.Color { return lipgloss.Color(s) }

// DarkPalette is the palette for dark terminal backgrounds.
func DarkPalette() Palette {
	return Palette{
		Name: "dark", Base: hex("#16161e"), Surface: hex("#1f2028"), Overlay: hex("#31333d"),
		Text: hex("#d4d6e4"), Subtle: hex("#a0a4bd"), Muted: hex("#5a5e6f"),
		Primary: hex("#7aa2f7"), Secondary: hex("#c39ae7"), Accent: hex("#dcc86a"), Highlight: hex("#ff9e64"),
		Border: hex("#3b3e55"), BorderFocus: hex("#7aa2f7"), SelectionBg: hex("#2e3c64"), SelectionF: hex("#eef0ff"),
		Success: hex("#9ece6a"), Warning: hex("#dcc86a"), Danger: hex("#f7768e"), Info: hex("#7dcfff"),
		DiffAdd: hex("#9ece6a"), DiffDel: hex("#f7768e"), DiffAddBg: hex("#243328"), DiffDelBg: hex("#37222c"),
		DiffHunk: hex("#7dcfff"), DiffContext: hex("#828698"),
		RoleUser: hex("#7dcfff"), RoleAssistant: hex("#c39ae7"), RoleTool: hex("#dcc86a"), RoleSystem: hex("#9ece6a"),
		Thinking: hex("#737a9a"), Code: hex("#c0caf5"), ScopeProject: hex("#9ece6a"), ScopeGlobal: hex("#7aa2f7"),
		Link: hex("#73daca"),
	}
}

// LightPalette is the palette for light terminal backgrounds.
func LightPalette() Palette {
	return Palette{
		Name: "light", Base: hex("#fafafa"), Surface: hex("#f0f0f4"), Overlay: hex("#dcdde6"),
		Text: hex("#22232e"), Subtle: hex("#555970"), Muted: hex("#898c98"),
		Primary: hex("#2e59c8"), Secondary: hex("#9b4aa8"), Accent: hex("#8f7500"), Highlight: hex("#c4470f"),
		Border: hex("#d0d2e0"), BorderFocus: hex("#2e59c8"), SelectionBg: hex("#d0d6ea"), SelectionF: hex("#10121c"),
		Success: hex("#2f7d32"), Warning: hex("#8f7500"), Danger: hex("#b8232f"), Info: hex("#0b6e99"),
		DiffAdd: hex("#2f7d32"), DiffDel: hex("#b8232f"), DiffAddBg: hex("#e3f4e1"), DiffDelBg: hex("#fbe4e7"),
		DiffHunk: hex("#0b6e99"), DiffContext: hex("#737786"),
		RoleUser: hex("#0b6e99"), RoleAssistant: hex("#9b4aa8"), RoleTool: hex("#8f7500"), RoleSystem: hex("#2f7d32"),
		Thinking: hex("#8288a6"), Code: hex("#343b58"), ScopeProject: hex("#2f7d32"), ScopeGlobal: hex("#2e59c8"),
		Link: hex("#007a78"),
	}
}

// MonoPalette has no colours at all; it is used when NO_COLOR is set so that
// emphasis comes only from bold, underline, faint and reverse.
func MonoPalette() Palette {
	none := lipgloss.NoColor{}
	return Palette{
		Name: "mono", Base: none, Surface: none, Overlay: none, Text: none, Subtle: none, Muted: none,
		Primary: none, Secondary: none, Accent: none, Highlight: none, Border: none, BorderFocus: none,
		SelectionBg: none, SelectionF: none, Success: none, Warning: none, Danger: none, Info: none,
		DiffAdd: none, DiffDel: none, DiffAddBg: none, DiffDelBg: none, DiffHunk: none, DiffContext: none,
		RoleUser: none, RoleAssistant: none, RoleTool: none, RoleSystem: none, Thinking: none, Code: none,
		ScopeProject: none, ScopeGlobal: none, Link: none,
	}
}

// NoColorRequested reports whether the NO_COLOR convention asks for no colour
// (the variable is present and not empty).
func NoColorRequested(getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	return getenv("NO_COLOR") != ""
}

// PaletteFor returns the palette for a resolved mode, or the mono palette when
// noColor is set.
func PaletteFor(m Mode, noColor bool) Palette {
	switch {
	case noColor:
		return MonoPalette()
	case m == Light:
		return LightPalette()
	}
	return DarkPalette()
}
