package i18n

import (
	"errors"
	"strings"
	"testing"
)

func TestEnglishPrintsTheKeyAndFormatsLikeFmt(t *testing.T) {
	if got := In(English, "Quit forgebench?"); got != "Quit forgebench?" {
		t.Fatalf("got %q", got)
	}
	// fmt's formatting, not x/text's localized digits: no grouping.
	if got := In(English, "%d tokens", 12345); got != "12345 tokens" {
		t.Fatalf("got %q", got)
	}
}

func TestPluralsSelectByTheArgumentInBothLanguages(t *testing.T) {
	for _, c := range []struct {
		l    Lang
		n    int
		want string
	}{
		{English, 1, "1 match"},
		{English, 0, "0 matches"},
		{English, 2, "2 matches"},
		{SimplifiedChinese, 1, "1 个匹配"},
		{SimplifiedChinese, 12345, "12345 个匹配"},
	} {
		if got := In(c.l, "%d matches", c.n); got != c.want {
			t.Errorf("%s %d: got %q, want %q", c.l, c.n, got, c.want)
		}
	}
}

func TestChineseTranslatesAndFallsBackToTheKey(t *testing.T) {
	if got := In(SimplifiedChinese, "Quit forgebench?"); got != "退出 forgebench？" {
		t.Fatalf("got %q", got)
	}
	if got := In(SimplifiedChinese, "no such key %d", 3); got != "no such key 3" {
		t.Fatalf("got %q", got)
	}
}

func TestErrorfWraps(t *testing.T) {
	base := errors.New("boom")
	err := Errorf("open the trace file: %w", base)
	if !errors.Is(err, base) || err.Error() != "open the trace file: boom" {
		t.Fatalf("got %v", err)
	}
}

func TestSetLanguageSwitchesT(t *testing.T) {
	defer SetLanguage(Current())
	SetLanguage(SimplifiedChinese)
	if Current() != SimplifiedChinese || T("Quit forgebench?") != "退出 forgebench？" {
		t.Fatalf("zh-CN not in force: %q", T("Quit forgebench?"))
	}
	SetLanguage(English)
	if Current() != English || T("Quit forgebench?") != "Quit forgebench?" {
		t.Fatalf("en not in force")
	}
}

func TestParseLangIsExact(t *testing.T) {
	for s, want := range map[string]bool{"en": true, "zh-CN": true, "zh-cn": false, "zh": false, "": false, "EN": false} {
		if _, ok := ParseLang(s); ok != want {
			t.Errorf("ParseLang(%q) = %v", s, ok)
		}
	}
}

func TestFromLocale(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{"LANG": "zh_CN.UTF-8"}, SimplifiedChinese},
		{map[string]string{"LANG": "zh_CN"}, SimplifiedChinese},
		{map[string]string{"LANG": "zh_SG.GB2312"}, SimplifiedChinese},
		{map[string]string{"LANG": "zh_Hans"}, SimplifiedChinese},
		{map[string]string{"LANG": "zh"}, SimplifiedChinese},
		{map[string]string{"LANG": "zh_CN.UTF-8@pinyin"}, SimplifiedChinese},
		{map[string]string{"LANG": "zh_TW.UTF-8"}, English},
		{map[string]string{"LANG": "zh_HK"}, English},
		{map[string]string{"LANG": "C"}, English},
		{map[string]string{"LANG": "POSIX"}, English},
		{map[string]string{"LANG": "C.UTF-8"}, English},
		{map[string]string{"LANG": "de_DE.UTF-8"}, English},
		{map[string]string{"LANG": "@@garbage"}, English},
		{map[string]string{}, English},
		// LC_ALL wins over LC_MESSAGES, which wins over LANG.
		{map[string]string{"LC_ALL": "C", "LC_MESSAGES": "zh_CN.UTF-8", "LANG": "zh_CN.UTF-8"}, English},
		{map[string]string{"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, SimplifiedChinese},
		{map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}, SimplifiedChinese},
	}
	for _, c := range cases {
		if got := FromLocale(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: got %s, want %s", c.env, got, c.want)
		}
	}
}

func TestResolveOrder(t *testing.T) {
	zhEnv := func(k string) string {
		if k == "LANG" {
			return "zh_CN.UTF-8"
		}
		return ""
	}
	if got := Resolve("en", "zh-CN", zhEnv); got != English {
		t.Errorf("flag must win: %s", got)
	}
	if got := Resolve("", "en", zhEnv); got != English {
		t.Errorf("setting must win over the locale: %s", got)
	}
	if got := Resolve("", "", zhEnv); got != SimplifiedChinese {
		t.Errorf("locale last: %s", got)
	}
}

func TestParseCatalogRejectsBadEntries(t *testing.T) {
	for _, bad := range []string{
		`[]`, `{"a": 1}`, `{"a": {"one": "x"}}`, `{"a": {"other": 1}}`, `{"a": {"lots": "x", "other": "y"}}`,
		`{"a": {"=x": "x", "other": "y"}}`, `{"a": {"arg": 0, "other": "y"}}`, `{"a": {"arg": "1", "other": "y"}}`, `{"a": null}`,
	} {
		if _, err := ParseCatalog([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	got, err := ParseCatalog([]byte(`{"%d x": {"other": "o", "=0": "none", "one": "1"}, "k": "v"}`))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, f := range got["%d x"].Forms {
		cases = append(cases, f.Case)
	}
	if strings.Join(cases, ",") != "=0,one,other" || got["k"].Text != "v" {
		t.Fatalf("got %+v", got)
	}
}

// The embedded catalogs parse, and every text comes back from x/text's
// catalog exactly as written (no ${…} substitution, no mangling).
func TestEmbeddedCatalogsRoundTrip(t *testing.T) {
	for _, l := range Langs() {
		entries, err := Entries(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		for key, e := range entries {
			if e.Plural() {
				continue
			}
			if got, ok := lookup(l, key, nil); !ok || got != e.Text {
				t.Errorf("%s %q: catalog gives %q, file says %q", l, key, got, e.Text)
			}
		}
	}
}

func FuzzParseCatalog(f *testing.F) {
	for _, l := range Langs() {
		for _, name := range catalogFiles(locales, l) {
			data, err := locales.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"%d x": {"arg": 2, "=0": "none", "one": "one", "other": "%d"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParseCatalog(data)
		if err != nil {
			return
		}
		for key, e := range entries {
			if e.Plural() && !hasOther(e.Forms) {
				t.Fatalf("%q: plural without other", key)
			}
			b := catalogFor(map[string]Entry{key: e})
			_ = b // building must not panic
		}
	})
}

// BenchmarkLoadChinese is what the first Chinese lookup pays once: parse
// the embedded zh-CN catalog and build its x/text catalog.
func BenchmarkLoadChinese(b *testing.B) {
	for b.Loop() {
		bk := &book{lang: SimplifiedChinese, tag: books[SimplifiedChinese].tag}
		bk.load()
		if bk.err != nil {
			b.Fatal(bk.err)
		}
	}
}

// BenchmarkT is a lookup once the catalog is loaded, per language.
func BenchmarkT(b *testing.B) {
	for _, l := range Langs() {
		b.Run(string(l), func(b *testing.B) {
			for b.Loop() {
				_ = In(l, "%d matches", 3)
				_ = In(l, "Quit forgebench?")
			}
		})
	}
}
