package cli

import (
	"os"
	"regexp"
	"strings"

	"github.com/forgebench/forgebench/i18n"
)

// The language of a run is known before kong parses the arguments, so that
// `--help` and the usage errors kong reports are printed in it: earlyLang
// finds --lang the way kong will, and the settings file and the locale
// decide when it is absent. Run resolves again from what kong parsed (an
// argument that only looked like --lang changes nothing).

// earlyLang is the value of the last --lang before "--" in args ("" when
// none), as kong reads it: "--lang zh-CN" or "--lang=zh-CN".
func earlyLang(args []string) string {
	lang := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--lang="); ok {
			lang = v
		} else if a == "--lang" && i+1 < len(args) {
			lang = args[i+1]
			i++
		}
	}
	return lang
}

// runLanguage is the language of a run whose --lang is flag (unchecked:
// an unknown value counts as absent; kong reports it).
func runLanguage(flag string) i18n.Lang {
	g := Globals{}
	if _, ok := i18n.ParseLang(flag); ok {
		g.Lang = langFlag(flag)
	}
	return g.language(os.Getenv)
}

// kongErrors are the usage errors kong writes, as whole sentences, with
// the parts that name arguments, flags and values captured. The first
// pattern that matches the whole message is translated; another message
// (a flag's own decoder, a forgebench check) prints as it is.
var kongErrors = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^unexpected argument (.+), did you mean one of (.+)\?$`), i18n.Mark("unexpected argument %s, did you mean one of %s?")},
	{regexp.MustCompile(`^unexpected argument (.+), did you mean (.+)\?$`), i18n.Mark("unexpected argument %s, did you mean %s?")},
	{regexp.MustCompile(`^unexpected argument (.+)$`), i18n.Mark("unexpected argument %s")},
	{regexp.MustCompile(`^unknown flag (.+), did you mean one of (.+)\?$`), i18n.Mark("unknown flag %s, did you mean one of %s?")},
	{regexp.MustCompile(`^unknown flag (.+), did you mean (.+)\?$`), i18n.Mark("unknown flag %s, did you mean %s?")},
	{regexp.MustCompile(`^unknown flag (.+)$`), i18n.Mark("unknown flag %s")},
	{regexp.MustCompile(`^unexpected flag argument (.+)$`), i18n.Mark("unexpected flag argument %s")},
	{regexp.MustCompile(`^expected one of (.+)$`), i18n.Mark("expected one of %s")},
	{regexp.MustCompile(`^expected (".+)$`), i18n.Mark("expected %s")},
	{regexp.MustCompile(`^missing flags: (.+)$`), i18n.Mark("missing flags: %s")},
	{regexp.MustCompile(`^missing positional arguments (.+)$`), i18n.Mark("missing positional arguments %s")},
	{regexp.MustCompile(`^(--\S+) and (--\S+) can't be used together$`), i18n.Mark("%s and %s can't be used together")},
	{regexp.MustCompile(`^(\S+) must be one of (.+) but got (".*")$`), i18n.Mark("%s must be one of %s but got %s")},
	{regexp.MustCompile(`^(--\S+): expected a valid (\d+) bit u?int but got (".*")$`), i18n.Mark("%s: expected a valid %s bit int but got %s")},
	{regexp.MustCompile(`^(--\S+): expected an int but got (".*") \(.*\)$`), i18n.Mark("%s: expected an int but got %s")},
}

// usageMessage is a kong parse error in the run's language.
func usageMessage(err error) string {
	msg := err.Error()
	if i18n.Current() == i18n.English {
		return msg
	}
	for _, e := range kongErrors {
		if m := e.re.FindStringSubmatch(msg); m != nil {
			args := make([]any, len(m)-1)
			for i, s := range m[1:] {
				args[i] = s
			}
			return i18n.T(e.key, args...)
		}
	}
	return msg
}
