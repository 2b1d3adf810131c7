package i18n

import (
	"strings"

	"golang.org/x/text/language"
)

// FromLocale returns the language the POSIX locale asks for: the first set
// of LC_ALL, LC_MESSAGES and LANG (in that order, as setlocale reads them
// for messages). A Simplified Chinese locale (zh_CN.UTF-8, zh_CN, zh_SG,
// zh_Hans, zh …) is SimplifiedChinese; C, POSIX, Traditional Chinese and
// everything else is English.
func FromLocale(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			return localeLang(v)
		}
	}
	return English
}

// localeLang maps one locale name, language[_territory][.codeset][@modifier].
func localeLang(v string) Lang {
	if i := strings.IndexAny(v, ".@"); i >= 0 {
		v = v[:i]
	}
	if v == "" || v == "C" || v == "POSIX" {
		return English
	}
	tag, err := language.Parse(strings.ReplaceAll(v, "_", "-"))
	if err != nil {
		return English
	}
	base, _ := tag.Base()
	script, _ := tag.Script() // inferred: zh-CN and zh-SG are Hans, zh-TW and zh-HK Hant
	if base.String() == "zh" && script.String() == "Hans" {
		return SimplifiedChinese
	}
	return English
}

// Resolve picks the language of a run: the --lang flag when given, else the
// settings file's "language", else the locale. flag and setting are empty
// when not given; both were validated by their readers.
func Resolve(flag, setting string, getenv func(string) string) Lang {
	if l, ok := ParseLang(flag); ok {
		return l
	}
	if l, ok := ParseLang(setting); ok {
		return l
	}
	return FromLocale(getenv)
}
