package jsregex

import (
	"errors"
	"sort"
	"strings"
	"unicode"
)

// generalCategoryLongNames maps ECMAScript General_Category long names to
// the short names of Go's unicode.Categories.
var generalCategoryLongNames = map[string]string{
	"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
	"Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo",
	"Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
	"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
	"Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po",
	"Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So",
	"Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp",
	"Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs",
	"Private_Use": "Co", "Unassigned": "Cn",
}

// codeRange is an inclusive code point range.
type codeRange struct{ lo, hi rune }

// propertyRanges resolves the body of \p{…} (unicode mode) to code point
// ranges: General_Category values (short or long, optionally gc= /
// General_Category=), Script / Script_Extensions values (long names) and
// the binary properties Go knows, plus Any, ASCII and Assigned.
func propertyRanges(body string) ([]codeRange, error) {
	name, value, hasValue := strings.Cut(body, "=")
	if hasValue {
		switch name {
		case "General_Category", "gc":
			return categoryRanges(value)
		case "Script", "sc", "Script_Extensions", "scx":
			if table, ok := unicode.Scripts[value]; ok {
				return tableRanges(table), nil
			}
		}
		return nil, errors.New("Invalid property name")
	}
	switch body {
	case "Any":
		return []codeRange{{0, unicode.MaxRune}}, nil
	case "ASCII":
		return []codeRange{{0, 0x7f}}, nil
	case "Assigned":
		r, _ := categoryRanges("Cn")
		return complementRanges(r), nil
	}
	if r, err := categoryRanges(body); err == nil {
		return r, nil
	}
	if table, ok := unicode.Properties[body]; ok {
		return tableRanges(table), nil
	}
	return nil, errors.New("Invalid property name")
}

func categoryRanges(name string) ([]codeRange, error) {
	if long, ok := generalCategoryLongNames[name]; ok {
		name = long
	}
	switch name {
	case "LC":
		return mergeRanges(append(append(tableRanges(unicode.Lu), tableRanges(unicode.Ll)...), tableRanges(unicode.Lt)...)), nil
	}
	if table, ok := unicode.Categories[name]; ok {
		return tableRanges(table), nil
	}
	return nil, errors.New("Invalid property name")
}

func tableRanges(table *unicode.RangeTable) []codeRange {
	var out []codeRange
	for _, r := range table.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			out = appendRune(out, c, rune(r.Stride) == 1, rune(r.Hi))
			if r.Stride == 1 {
				break
			}
		}
	}
	for _, r := range table.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			out = appendRune(out, c, rune(r.Stride) == 1, rune(r.Hi))
			if r.Stride == 1 {
				break
			}
		}
	}
	return mergeRanges(out)
}

// appendRune adds c (or the whole run c..hi for stride 1).
func appendRune(out []codeRange, c rune, run bool, hi rune) []codeRange {
	if run {
		return append(out, codeRange{c, hi})
	}
	return append(out, codeRange{c, c})
}

// mergeRanges sorts and joins overlapping or adjacent ranges.
func mergeRanges(in []codeRange) []codeRange {
	if len(in) == 0 {
		return in
	}
	sorted := append([]codeRange(nil), in...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].lo < sorted[j].lo })
	out := []codeRange{sorted[0]}
	for _, r := range sorted[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi+1 {
			last.hi = max(last.hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func complementRanges(in []codeRange) []codeRange {
	var out []codeRange
	next := rune(0)
	for _, r := range in {
		if r.lo > next {
			out = append(out, codeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, codeRange{next, unicode.MaxRune})
	}
	return out
}

// writeRanges writes ranges as class body items. Surrogate code points are
// kept (as escapes): a lone surrogate in the text is one JavaScript code
// unit that a class such as [\s\S] or [^a] matches.
func writeRanges(b *strings.Builder, ranges []codeRange) {
	for _, r := range ranges {
		writeClassLiteral(b, r.lo)
		if r.hi > r.lo {
			b.WriteByte('-')
			writeClassLiteral(b, r.hi)
		}
	}
}

// propertyRanges parses \p{…} / \P{…} at pos (unicode mode) into ranges.
func (t *translator) propertyRanges() ([]codeRange, error) {
	negated := t.src[t.pos+1] == 'P'
	if t.peek(2) != '{' {
		return nil, errors.New("Invalid property name")
	}
	end := t.pos + 3
	for end < len(t.src) && t.src[end] != '}' {
		end++
	}
	if end >= len(t.src) {
		return nil, errors.New("Invalid property name")
	}
	ranges, err := propertyRanges(string(t.src[t.pos+3 : end]))
	if err != nil {
		return nil, err
	}
	if negated {
		ranges = complementRanges(ranges)
	}
	t.pos = end + 1
	return ranges, nil
}
