package jsregex

import (
	"strings"
	"unicode/utf8"
)

// ReplaceResult is the outcome of one String.prototype.replace call.
type ReplaceResult struct {
	// Text is the text after the replacement.
	Text string
	// Matches counts the matches found.
	Matches int
}

// Replace emulates text.replace(re, fn) where fn expands each match; it
// also counts the matches the way pi-forge's countReplacementMatches does.
// Every match runs within budget (nil: MatchTimeout only).
func (r *Regexp) Replace(text string, budget Limiter, expand func(s []rune, m *Match) string) (ReplaceResult, error) {
	s := jsRunes(text)
	var out strings.Builder
	next, last, count := 0, 0, 0
	for {
		m, err := r.execAt(s, last, budget)
		if err != nil {
			return ReplaceResult{Text: text}, err
		}
		if m == nil {
			break
		}
		count++
		if m.index >= next {
			out.WriteString(jsText(s[next:m.index]))
			out.WriteString(expand(s, m))
			next = m.index + m.length
		}
		if !r.Global {
			break
		}
		last = m.index + m.length
		if m.length == 0 {
			last++
		}
		if last > len(s) {
			break
		}
	}
	if count == 0 {
		return ReplaceResult{Text: text}, nil
	}
	out.WriteString(jsText(s[min(next, len(s)):]))
	return ReplaceResult{Text: out.String(), Matches: count}, nil
}

// ReplaceString is JavaScript text.replace(re, replacement) with a
// replacement pattern string ($$, $&, $`, $', $n, $nn, $<name>).
func (r *Regexp) ReplaceString(text, replacement string) (string, error) {
	res, err := r.Replace(text, nil, func(s []rune, m *Match) string { return r.Substitute(s, m, replacement) })
	return res.Text, err
}

// Substitute implements ECMAScript GetSubstitution.
func (r *Regexp) Substitute(s []rune, m *Match, template string) string {
	if !strings.Contains(template, "$") {
		return template
	}
	t := []rune(template)
	var b strings.Builder
	captures := len(m.groups)
	for i := 0; i < len(t); i++ {
		if t[i] != '$' || i+1 >= len(t) {
			b.WriteRune(t[i])
			continue
		}
		switch c := t[i+1]; {
		case c == '$':
			b.WriteByte('$')
			i++
		case c == '&':
			b.WriteString(jsText(s[m.index : m.index+m.length]))
			i++
		case c == '`':
			b.WriteString(jsText(s[:m.index]))
			i++
		case c == '\'':
			b.WriteString(jsText(s[min(m.index+m.length, len(s)):]))
			i++
		case c >= '0' && c <= '9':
			digits := 1
			index := int(c - '0')
			if i+2 < len(t) && t[i+2] >= '0' && t[i+2] <= '9' {
				digits = 2
				index = index*10 + int(t[i+2]-'0')
				if index > captures {
					digits = 1
					index = int(c - '0')
				}
			}
			if index >= 1 && index <= captures {
				b.WriteString(m.groups[index-1].text)
			} else {
				b.WriteString(string(t[i : i+1+digits]))
			}
			i += digits
		case c == '<':
			end := -1
			for j := i + 2; j < len(t); j++ {
				if t[j] == '>' {
					end = j
					break
				}
			}
			if !r.hasNamed || end < 0 {
				b.WriteString("$<")
				i++
				continue
			}
			if g, ok := r.namedGroup(m, string(t[i+2:end])); ok {
				b.WriteString(g.text)
			}
			i = end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// ConvertDollarZero rewrites "$0" not followed by a digit to "$&", keeping
// "$$" pairs intact (pi-forge's convertDollarZeroToFullMatch).
func ConvertDollarZero(template string) string {
	if !strings.Contains(template, "$0") {
		return template
	}
	t := []rune(template)
	var b strings.Builder
	for i := 0; i < len(t); {
		if t[i] != '$' {
			b.WriteRune(t[i])
			i++
			continue
		}
		if i+1 < len(t) && t[i+1] == '$' {
			b.WriteString("$$")
			i += 2
			continue
		}
		if i+1 < len(t) && t[i+1] == '0' && (i+2 >= len(t) || t[i+2] < '0' || t[i+2] > '9') {
			b.WriteString("$&")
			i += 2
			continue
		}
		b.WriteByte('$')
		i++
	}
	return b.String()
}

// ExpandTrimmed is pi-forge's own replacement expander used when a rule has
// trimStrings: tokens $$ $& $0 $` $' $1..$99 (greedy two digits) and
// $<name>; matched values (not $`/$') have every trim string removed.
func (r *Regexp) ExpandTrimmed(s []rune, m *Match, template string, trimStrings []string) string {
	t := []rune(template)
	var b strings.Builder
	match := jsText(s[m.index : m.index+m.length])
	for i := 0; i < len(t); i++ {
		if t[i] != '$' || i+1 >= len(t) {
			b.WriteRune(t[i])
			continue
		}
		c := t[i+1]
		switch {
		case c == '$':
			b.WriteByte('$')
			i++
		case c == '&' || (c == '0' && (i+2 >= len(t) || t[i+2] < '0' || t[i+2] > '9')):
			b.WriteString(trimAll(match, trimStrings))
			i++
		case c == '`':
			b.WriteString(jsText(s[:m.index]))
			i++
		case c == '\'':
			b.WriteString(jsText(s[m.index+m.length:]))
			i++
		case c >= '1' && c <= '9':
			n, width := int(c-'0'), 1
			if i+2 < len(t) && t[i+2] >= '0' && t[i+2] <= '9' {
				n, width = n*10+int(t[i+2]-'0'), 2
			}
			if n <= len(m.groups) {
				b.WriteString(trimAll(m.groups[n-1].text, trimStrings))
			}
			i += width
		case c == '<':
			end := -1
			for j := i + 2; j < len(t); j++ {
				if t[j] == '>' {
					end = j
					break
				}
			}
			if end <= i+2 {
				b.WriteByte('$')
				continue
			}
			if g, ok := r.namedGroup(m, string(t[i+2:end])); ok && g.ok {
				b.WriteString(trimAll(g.text, trimStrings))
			}
			i = end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

func trimAll(value string, trimStrings []string) string {
	for _, ts := range trimStrings {
		if ts != "" {
			value = strings.ReplaceAll(value, ts, "")
		}
	}
	return value
}

// UTF16Split splits text so that the tail holds the last maxChars UTF-16
// code units (a surrogate pair that would be cut stays in the head). A
// WTF-8 lone surrogate counts as one unit.
func UTF16Split(text string, maxChars int) (head, body string) {
	total := 0
	for i := 0; i < len(text); {
		r, size := nextJSRune(text, i)
		total += utf16Width(r)
		i += size
	}
	if maxChars <= 0 || total <= maxChars {
		return "", text
	}
	headUnits := total - maxChars
	units := 0
	for i := 0; i < len(text); {
		if units >= headUnits {
			return text[:i], text[i:]
		}
		r, size := nextJSRune(text, i)
		units += utf16Width(r)
		i += size
	}
	return text, ""
}

// nextJSRune decodes the code point at text[i] the way jsRunes does and
// returns it with its size in bytes.
func nextJSRune(text string, i int) (rune, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	if i+2 < len(text) && text[i] == 0xED && text[i+1] >= 0xA0 && text[i+1] <= 0xBF && text[i+2] >= 0x80 && text[i+2] <= 0xBF {
		return 0xD000 | rune(text[i+1]&0x3F)<<6 | rune(text[i+2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(text[i:])
}

// jsRunes decodes text into the code points a RegExp sees: a WTF-8 encoded
// surrogate (how engine/jsonv holds a lone UTF-16 code unit) becomes that
// surrogate code point; any other invalid byte becomes U+FFFD.
func jsRunes(text string) []rune {
	out := make([]rune, 0, len(text))
	for i := 0; i < len(text); {
		r, size := nextJSRune(text, i)
		out = append(out, r)
		i += size
	}
	return out
}

// jsText encodes code points back into a string: a high surrogate followed
// by a low one forms their character (as in a JavaScript string), any other
// surrogate is written in WTF-8.
func jsText(runes []rune) string {
	var b []byte
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r >= 0xD800 && r <= 0xDBFF && i+1 < len(runes) && runes[i+1] >= 0xDC00 && runes[i+1] <= 0xDFFF:
			b = utf8.AppendRune(b, (r-0xD800)<<10+(runes[i+1]-0xDC00)+0x10000)
			i++
		case isSurrogate(r):
			b = append(b, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

func utf16Width(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
