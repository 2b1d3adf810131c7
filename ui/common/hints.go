package common

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/themes"
)

// Hint is one key hint of a help line and its rank: when the line is too
// narrow, hints of higher rank are left out first, whatever their place.
type Hint struct {
	Binding key.Binding
	Rank    int
}

// Ranked ranks bindings by their order: the first is the most important
// (rank from), the next from+1, and so on.
func Ranked(from int, bs ...key.Binding) []Hint {
	out := make([]Hint, len(bs))
	for i, b := range bs {
		out[i] = Hint{Binding: b, Rank: from + i}
	}
	return out
}

// hintSep separates hints; the help styles' separator colours it.
const hintSep = " • "

// FitHints renders the enabled hints in their given order in at most
// width cells. When they do not all fit, it leaves out the hints of the
// highest rank, one by one, until the rest do: a binding is shown whole
// or not at all, so no hint is cut in the middle and the important keys
// stay visible at every width. It reports how many hints were left out.
func FitHints(st *themes.Styles, hints []Hint, width int) (line string, omitted int) {
	var shown []Hint
	for _, h := range hints {
		if h.Binding.Enabled() && h.Binding.Help().Key != "" {
			shown = append(shown, h)
		}
	}
	sepWidth := ansi.StringWidth(hintSep)
	widths := make([]int, len(shown))
	total := 0
	for i, h := range shown {
		widths[i] = hintWidth(h.Binding)
		total += widths[i]
		if i > 0 {
			total += sepWidth
		}
	}
	// Drop in rank order, highest first; among equal ranks the later one.
	order := make([]int, len(shown))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := shown[order[a]].Rank, shown[order[b]].Rank
		if ra != rb {
			return ra > rb
		}
		return order[a] > order[b]
	})
	dropped := make([]bool, len(shown))
	kept := len(shown)
	for _, i := range order {
		if total <= width {
			break
		}
		dropped[i] = true
		total -= widths[i]
		if kept--; kept > 0 {
			total -= sepWidth
		}
		omitted++
	}
	parts := make([]string, 0, kept)
	for i, h := range shown {
		if !dropped[i] {
			parts = append(parts, st.Help.ShortKey.Render(h.Binding.Help().Key)+" "+st.Help.ShortDesc.Render(HelpDesc(h.Binding)))
		}
	}
	line = strings.Join(parts, st.Help.ShortSeparator.Render(hintSep))
	return ansi.Truncate(line, max(0, width), ""), omitted
}

func hintWidth(b key.Binding) int {
	return ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(HelpDesc(b))
}

// HelpDesc is b's help text in the current language. Help texts are
// catalog keys (keymap marks them with i18n.Mark), translated where they
// are drawn; the key name, Help().Key, is never translated.
func HelpDesc(b key.Binding) string { return i18n.T(b.Help().Desc) }

// Localized returns copies of bs whose help texts are in the current
// language, for renderers that read Help().Desc themselves (bubbles' help).
func Localized(bs []key.Binding) []key.Binding {
	out := make([]key.Binding, len(bs))
	for i, b := range bs {
		b.SetHelp(b.Help().Key, HelpDesc(b))
		out[i] = b
	}
	return out
}
