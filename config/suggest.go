package config

import (
	"errors"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/sahilm/fuzzy"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// maxSuggestions bounds the names one "did you mean" offers.
const maxSuggestions = 5

// ThemeNames are the valid themes of the settings file and of --theme, in
// the order they are listed.
func ThemeNames() []string {
	return []string{string(themes.Auto), string(themes.Dark), string(themes.Light)}
}

// LanguageNames are the languages the settings file and --lang accept.
func LanguageNames() []string {
	var out []string
	for _, l := range i18n.Langs() {
		out = append(out, string(l))
	}
	return out
}

// ParseLanguage reads a language name, exactly as LanguageNames spell it.
// An unknown one is an error that suggests the nearest and lists them all.
func ParseLanguage(name string) (i18n.Lang, error) {
	if l, ok := i18n.ParseLang(name); ok {
		return l, nil
	}
	return "", unknownChoice(name, LanguageNames(),
		i18n.Mark("unknown language %s: did you mean %s? (languages: %s)"), i18n.Mark("unknown language %s (languages: %s)"))
}

// ParseTheme reads a theme name. An unknown one (the empty string
// included: it means "not set" and is never written) is an error that
// suggests the nearest themes and lists them all.
func ParseTheme(name string) (themes.Mode, error) {
	for _, t := range ThemeNames() {
		if name == t {
			return themes.Mode(name), nil
		}
	}
	return "", unknownChoice(name, ThemeNames(),
		i18n.Mark("unknown theme %s: did you mean %s? (themes: %s)"), i18n.Mark("unknown theme %s (themes: %s)"))
}

// unknownChoice is the error for name, which is none of names: withNear
// (name, the nearest names, all names) when some are near, else without
// (name, all names), both catalog keys.
func unknownChoice(name string, names []string, withNear, without string) error {
	all := strings.Join(names, ", ")
	if near := didYouMean(name, names); near != "" {
		return errors.New(i18n.T(withNear, keymap.Quote(name), near, all))
	}
	return errors.New(i18n.T(without, keymap.Quote(name), all))
}

// didYouMean is the names nearest to bad, quoted and joined with ", "
// (`"a", "b"`), or "" when none is near.
func didYouMean(bad string, names []string) string {
	near := nearest(bad, names)
	quoted := make([]string, len(near))
	for i, n := range near {
		quoted[i] = keymap.Quote(n)
	}
	return strings.Join(quoted, ", ")
}

// nearest returns at most maxSuggestions of names that bad was probably
// meant to be, the likeliest first. Two libraries, for two kinds of
// mistake:
//
//   - a typo (a letter left out, added or changed, two swapped; any case):
//     the Levenshtein distance (agnivade/levenshtein) within a fifth of the
//     name's length, at least 2, closest first; when bad's group (the part
//     before the dot) is none of the names' groups, then the names whose
//     part after the dot is within 1 of bad's, so "save" finds
//     "presets.save";
//   - an abbreviation or a name cut short ("pr.sv", "sesion.tree"): bad's
//     letters in order in the name, as the `:` palette matches
//     (sahilm/fuzzy, best score first).
func nearest(bad string, names []string) []string {
	folded := strings.ToLower(bad)
	limit := max(2, len([]rune(folded))/5)
	lower := lowered(names)
	knownGroup := false
	for _, n := range lower {
		if g, _, ok := strings.Cut(n, "."); ok && strings.HasPrefix(folded, g+".") {
			knownGroup = true
			break
		}
	}
	type scored struct {
		name string
		rank int
	}
	var close []scored
	for i, n := range lower {
		d := levenshtein.ComputeDistance(folded, n)
		if d > limit {
			if knownGroup {
				continue
			}
			seg := levenshtein.ComputeDistance(lastSegment(folded), lastSegment(n))
			if seg > 1 {
				continue
			}
			d = limit + 1 + seg // after every whole-name match
		}
		close = append(close, scored{names[i], d})
	}
	sort.Slice(close, func(i, j int) bool {
		if close[i].rank != close[j].rank {
			return close[i].rank < close[j].rank
		}
		return close[i].name < close[j].name
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range close {
		if len(out) == maxSuggestions {
			return out
		}
		out, seen[c.name] = append(out, c.name), true
	}
	if folded == "" {
		return out
	}
	for _, m := range fuzzy.Find(folded, lower) {
		if len(out) == maxSuggestions {
			break
		}
		if n := names[m.Index]; !seen[n] {
			out, seen[n] = append(out, n), true
		}
	}
	return out
}

// lastSegment is the part of a binding name after its group's dot.
func lastSegment(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

func lowered(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// unknownSettingsError says, one line per unknown top-level name, which
// setting the user probably meant, or that none is near; each line lists
// the settings there are.
func unknownSettingsError(unknown, known []string) error {
	all := strings.Join(known, ", ")
	return unknownNamesError(unknown, func(bad string) string {
		if near := didYouMean(bad, known); near != "" {
			return i18n.T("%s: did you mean %s? (settings: %s)", keymap.Quote(bad), near, all)
		}
		return i18n.T("%s: it did not match any setting (settings: %s)", keymap.Quote(bad), all)
	}, i18n.Mark("unknown setting %s"), i18n.Mark("unknown settings:\n  %s"))
}

// unknownBindingsError says, one line per unknown binding name, which
// names the user probably meant, or that none is near and then what the
// names look like (bindingNameShape).
func unknownBindingsError(unknown, names []string) error {
	return unknownNamesError(unknown, func(bad string) string {
		if near := didYouMean(bad, names); near != "" {
			return i18n.T("%s: did you mean %s?", keymap.Quote(bad), near)
		}
		return bindingNameShape(keymap.Quote(bad), names)
	}, i18n.Mark("unknown binding name %s"), i18n.Mark("unknown binding names:\n  %s"))
}

// unknownNamesError is one line per unknown name (line says what the
// name might have been), under one (a single line) or many (a list), both
// catalog keys.
func unknownNamesError(unknown []string, line func(bad string) string, one, many string) error {
	sort.Strings(unknown)
	lines := make([]string, len(unknown))
	for i, bad := range unknown {
		lines[i] = line(bad)
	}
	if len(lines) == 1 {
		return errors.New(i18n.T(one, lines[0]))
	}
	return errors.New(i18n.T(many, strings.Join(lines, "\n  ")))
}

// bindingNameShape says that bad (quoted) matches no binding name and
// describes the names of set: global ones such as quit and help (every
// set has them), or group.name with the groups of named.
func bindingNameShape(bad string, named []string) string {
	groups := map[string]bool{}
	for _, n := range named {
		if i := strings.IndexByte(n, '.'); i >= 0 {
			groups[n[:i]] = true
		}
	}
	quotedGroups := make([]string, 0, len(groups))
	for g := range groups {
		quotedGroups = append(quotedGroups, keymap.Quote(g))
	}
	sort.Strings(quotedGroups)
	return i18n.T("%s: it did not match any binding name (names are global, as %s and %s, or group.name with the groups %s; the README's Settings section lists them)",
		bad, keymap.Quote("quit"), keymap.Quote("help"), strings.Join(quotedGroups, ", "))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
