package jsregex

import (
	"strings"
	"testing"
)

// jsReplaceCases are JavaScript `input.replace(new RegExp(pattern, flags), replace)`
// results (values as a JavaScript engine gives them).
var jsReplaceCases = []struct {
	name, pattern, flags, input, replace, want string
}{
	{"global", "a", "g", "banana", "o", "bonono"},
	{"first only", "a", "", "banana", "o", "bonana"},
	{"ignore case", "B", "gi", "abcABC", "x", "axcAxC"},
	{"whole match", "an", "g", "banana", "[$&]", "b[an][an]a"},
	{"numbered", `(\w)(\d)`, "g", "a1 b2", "$2$1", "1a 2b"},
	{"two digit", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", "", "abcdefghij", "$10", "j"},
	{"two digit falls back", "(a)", "", "a", "$10", "a0"},
	{"$01", "(a)", "", "a", "$01", "a"},
	{"$00 literal", "(a)", "", "a", "$00", "$00"},
	{"$0 literal in plain JS", "a", "", "a", "$0", "$0"},
	{"missing group literal", "a", "", "a", "$1", "$1"},
	{"dollar dollar", "a", "", "a", "$$", "$"},
	{"prefix suffix", "b", "", "abc", "[$`|$']", "a[a|c]c"},
	{"named", `(?<y>\d{4})-(?<m>\d\d)`, "", "2026-11", "$<m>/$<y>", "11/2026"},
	{"named unknown is empty", `(?<y>\d)`, "", "1", "[$<zz>]", "[]"},
	{"$< without named groups", `(\d)`, "", "1", "$<y>", "$<y>"},
	{"named and unnamed numbering", `(?<a>x)(y)`, "", "xy", "$2$1", "yx"},
	{"unmatched group empty", `(a)|(b)`, "", "b", "[$1]", "[]"},
	{"dot excludes newline", ".", "g", "a\nb\r\u2028c", "x", "x\nx\r\u2028x"},
	{"dotall", ".", "gs", "a\nb", "x", "xxx"},
	{"anchors", "^a$", "", "a\n", "x", "a\n"},
	{"dollar end only", "a$", "", "a\na", "x", "a\nx"},
	{"multiline", "^\\w", "gm", "ab\ncd\re", "X", "Xb\nXd\rX"},
	{"multiline end", "\\w$", "gm", "ab\ncd\u2028ef", "X", "aX\ncX\u2028eX"},
	{"empty matches", "x*", "g", "abc", "-", "-a-b-c-"},
	{"lookbehind", "(?<=\\$)\\d+", "g", "$12 and 34", "N", "$N and 34"},
	{"negative lookbehind", "(?<!a)b", "g", "ab cb", "X", "ab cX"},
	{"lookahead", "a(?=b)", "g", "ab ac", "X", "Xb ac"},
	// With both u and i, JavaScript's word characters also contain U+017F
	// (ſ) and U+212A (Kelvin sign), whose simple case folds are "s" and "k";
	// \w, \W, \b and \B (inside and outside classes) use that set.
	{"iu word includes long s and kelvin", `\w`, "giu", "\u017fK\u212a!", "X", "XXX!"},
	{"iu non-word excludes them", `\W`, "giu", "\u017fK\u212a!", "X", "\u017fK\u212aX"},
	{"iu word in class", `[\w]`, "giu", "\u017f\u212a-", "X", "XX-"},
	{"iu non-word in class", `[\W]`, "giu", "\u017f\u212a-", "X", "\u017f\u212aX"},
	{"iu boundary", `\b`, "gu" + "i", "-\u017f-", "|", "-|\u017f|-"},
	{"iu non-boundary", `\B`, "giu", "\u212a\u017f", "|", "\u212a|\u017f"},
	{"i without u keeps ascii word", `\w`, "gi", "\u017fK\u212a", "X", "\u017fX\u212a"},
	{"u without i keeps ascii word", `\w`, "gu", "\u017fK\u212a", "X", "\u017fX\u212a"},
	{"backref", "(a)\\1", "g", "aa a", "X", "X a"},
	{"forward backref matches empty", "\\1(a)", "", "a", "X", "X"},
	{"named backref", "(?<q>['\"]).*?\\k<q>", "g", `'a' "b"`, "S", "S S"},
	{"digit class ascii only", "\\d", "g", "1\u0663", "#", "#\u0663"},
	{"word boundary ascii", "\\bé", "g", "aé é", "E", "aE é"},
	{"non word boundary", "\\Bb", "g", "ab b", "X", "aX b"},
	{"space class js", "\\s", "g", "a\ufeffb\u00a0c", "_", "a_b_c"},
	{"empty class never", "a[]", "g", "a", "x", "a"},
	{"negated empty class any", "[^]", "g", "a\n", "x", "xx"},
	{"brace literal", "a{", "", "a{", "x", "x"},
	{"brace literal 2", "a{1,x}", "", "a{1,x}", "y", "y"},
	{"quantifier", "a{2,3}", "g", "aaaa", "x", "xa"},
	{"class with bracket", "[[]", "g", "a[b", "x", "axb"},
	{"class subtraction syntax is literal", "[-[]", "g", "-[a", "x", "xxa"},
	{"class range then bracket", "[a-c-[]", "g", "b-[d", "x", "xxxd"},
	{"identity escape A", "\\A", "", "xA", "y", "xy"},
	{"octal escape", "\\101", "", "A", "y", "y"},
	{"null escape", "\\0", "", "a\x00", "y", "ay"},
	{"hex", "\\x41\\u0042", "", "AB", "y", "y"},
	{"control", "\\cJ", "", "\n", "y", "y"},
	{"unicode brace", "\\u{1F600}", "u", "😀", "y", "y"},
	{"astral literal", "😀+", "gu", "a😀😀b", "y", "ayb"},
	{"hash literal", "#\\d", "", "#1", "y", "y"},
	{"lazy", "a+?", "", "aaa", "x", "xaa"},
	{"class escapes", "[\\d-]", "g", "1-a", "x", "xxa"},
	{"class backspace", "[\\b]", "", "\b", "x", "x"},
	{"property letter", "\\p{L}+", "gu", "héllo 世界 42", "W", "W W 42"},
	{"property long name in class", "[\\p{Decimal_Number}_]", "gu", "a_1٣", "#", "a###"},
	{"negated property", "\\P{Lu}", "gu", "aB", "-", "-B"},
	{"script", "\\p{Script=Greek}", "gu", "aαb", "G", "aGb"},
	{"p without u is literal", "\\p{L}", "", "p{L}", "x", "x"},
	{"ci kelvin non-unicode", "[a-z]", "gi", "k\u212aK", "x", "x\u212ax"},
	{"ci kelvin unicode", "k", "giu", "k\u212aK", "x", "xxx"},
	{"ci long s", "s", "gi", "s\u017fS", "x", "x\u017fx"},
	{"ci long s unicode", "s", "giu", "s\u017fS", "x", "xxx"},
	{"ci final sigma", "σ", "gi", "Σσς", "x", "xxx"},
	{"ci dotted I", "i", "gi", "iIİı", "x", "xxİı"},
	{"ci sharp s", "ß", "gi", "ßẞ", "x", "xẞ"},
	{"ci sharp s unicode", "ß", "giu", "ßẞ", "x", "xx"},
	{"ci negated class", "[^a]", "gi", "aAb", "x", "aAx"},
	{"ci backref", "(a)\\1", "gi", "aA", "x", "x"},
	{"ci property", "\\p{Lu}", "giu", "aB1", "x", "xx1"},
	{"ci range", "[À-Ö]", "gi", "àé", "x", "xx"},
	{"class control letter", "[\\cA]", "", "\x01", "x", "x"},
	{"class control digit annex b", "[\\c1]", "", "\x11", "x", "x"},
	{"class lone \\c annex b", "[\\c]", "g", "\\c", "x", "xx"},
	{"lone \\c annex b", "\\c", "", "\\c", "x", "x"},
	{"class hex range", "[\\x41-\\x43]", "g", "ABCD", "x", "xxxD"},
	{"class unicode escape", "[\\u0041\\0]", "g", "A\x00", "x", "xx"},
	{"class octal and 8", "[\\101\\8]", "g", "A8", "x", "xx"},
	{"class k identity", "[\\k]", "", "k", "x", "x"},
	{"surrogate pair escape", "\\uD83D\\uDE00", "", "😀", "x", "x"},
	{"gc equals", "\\p{gc=Lu}", "gu", "aB", "x", "ax"},
	{"script extensions", "\\p{scx=Latin}+", "u", "abc", "x", "x"},
	{"ascii any assigned", "\\p{ASCII}\\p{Any}\\p{Assigned}", "u", "a😀b", "x", "x"},
	{"cased letter", "\\p{LC}", "gu", "aǅ1", "x", "xx1"},
	{"unassigned", "\\p{Cn}", "gu", "a\U000E0080", "x", "ax"},
	{"binary property", "\\p{White_Space}", "gu", "a b", "x", "axb"},
	{"quantifier leading zeros", "a{0002}", "", "aaa", "x", "xa"},
	{"huge quantifier", "a{0,99999999999}", "", "aaa", "x", "x"},
	{"quantified lookahead annex b", "(?=a)*a", "", "a", "x", "x"},
}

func TestJSReplace(t *testing.T) {
	for _, c := range jsReplaceCases {
		re, err := Compile(c.pattern, c.flags)
		if err != nil {
			t.Errorf("%s: compile /%s/%s: %v", c.name, c.pattern, c.flags, err)
			continue
		}
		got, err := re.ReplaceString(c.input, c.replace)
		if err != nil || got != c.want {
			t.Errorf("%s: /%s/%s on %q with %q = %q (%v), want %q", c.name, c.pattern, c.flags, c.input, c.replace, got, err, c.want)
		}
	}
}

func TestCompileJSErrors(t *testing.T) {
	cases := []struct{ pattern, flags, reason string }{
		{"(a", "", "Unterminated group"},
		{"a)", "", "Unmatched ')'"},
		{"*a", "", "Nothing to repeat"},
		{"a**", "", "Nothing to repeat"},
		{"[a", "", "Unterminated character class"},
		{"[z-a]", "", "Range out of order in character class"},
		{"a{3,1}", "", "numbers out of order in {} quantifier"},
		{"(?i)a", "", "Invalid group"},
		{"(?<1a>x)", "", "Invalid capture group name"},
		{"(?<a>x)(?<a>y)", "", "Duplicate capture group name"},
		{"(?<a>x)\\k<b>", "", "Invalid named capture referenced"},
		{"a\\", "", `\ at end of pattern`},
		{"\\q", "u", "Invalid escape"},
		{"a{", "u", "Lone quantifier brackets"},
		{"{1}x", "", "Nothing to repeat"},
		{"(?<=a)*", "", "Nothing to repeat"},
		{"\\p{Nope}", "u", "Invalid property name"},
		{"\\p{Script=Nope}", "u", "Invalid property name"},
		{"\\pL", "u", "Invalid property name"},
		{"\\p{L", "u", "Invalid property name"},
		{"[\\d-z]", "u", "Invalid character class"},
		{"\\u{110000}", "u", "Invalid Unicode escape"},
		{"\\x4", "u", "Invalid escape"},
		{"\\c1", "u", "Invalid unicode escape"},
		{"\\1", "u", "Invalid escape"},
		{"\\01", "u", "Invalid decimal escape"},
		{"\\k<a>", "u", "Invalid named capture referenced"},
		{"\\k", "u", "Invalid named reference"},
	}
	for _, c := range cases {
		_, err := Compile(c.pattern, c.flags)
		want := "Invalid regular expression: /" + c.pattern + "/" + c.flags + ": " + c.reason
		if err == nil || err.Error() != want {
			t.Errorf("Compile(%q, %q) error = %v, want %q", c.pattern, c.flags, err, want)
		}
	}
	if _, err := Compile("a", "gg"); err == nil || !strings.Contains(err.Error(), "Invalid flags") {
		t.Errorf("duplicate flag accepted: %v", err)
	}
}
