package i18n

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A language's catalog is its main file and every file in its directory,
// merged; parts of the workbench translate on their own files.
func TestCatalogMergesTheFilesOfALanguage(t *testing.T) {
	fsys := fstest.MapFS{
		"locales/zh-CN.json":          {Data: []byte(`{"Quit": "退出"}`)},
		"locales/zh-CN/sessions.json": {Data: []byte(`{"%d sessions": {"other": "%d 个会话"}}`)},
		"locales/zh-CN/cli.json":      {Data: []byte(`{"open": "打开"}`)},
		"locales/en.json":             {Data: []byte(`{}`)},
	}
	got, err := readCatalog(fsys, SimplifiedChinese)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"Quit", "%d sessions", "open"} {
		if _, ok := got[key]; !ok {
			t.Errorf("merged catalog lacks %q: %v", key, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("merged catalog has %d keys, want 3", len(got))
	}
}

// A key translated differently in two files of one language is an error
// naming both files: which translation wins must never depend on file order.
func TestCatalogRefusesAKeyTranslatedTwoWays(t *testing.T) {
	fsys := fstest.MapFS{
		"locales/zh-CN.json":        {Data: []byte(`{"Quit": "退出"}`)},
		"locales/zh-CN/panels.json": {Data: []byte(`{"Quit": "离开"}`)},
	}
	_, err := readCatalog(fsys, SimplifiedChinese)
	if err == nil || !strings.Contains(err.Error(), "locales/zh-CN.json") || !strings.Contains(err.Error(), "locales/zh-CN/panels.json") {
		t.Fatalf("err = %v, want one naming both files", err)
	}
}

// A file that does not parse is named in the error.
func TestCatalogNamesTheFileThatDoesNotParse(t *testing.T) {
	fsys := fstest.MapFS{
		"locales/zh-CN.json":     {Data: []byte(`{}`)},
		"locales/zh-CN/bad.json": {Data: []byte(`{"Quit": `)},
	}
	_, err := readCatalog(fsys, SimplifiedChinese)
	if err == nil || !strings.Contains(err.Error(), "locales/zh-CN/bad.json") {
		t.Fatalf("err = %v, want one naming the bad file", err)
	}
}

// Two parts may carry the same word with the same translation: parallel
// branches each add "close" and the merge must not fail for it.
func TestCatalogTakesAKeyTranslatedTheSameInTwoFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"locales/zh-CN.json":        {Data: []byte(`{"close": "关闭"}`)},
		"locales/zh-CN/panels.json": {Data: []byte(`{"close": "关闭", "open": "打开"}`)},
	}
	got, err := readCatalog(fsys, SimplifiedChinese)
	if err != nil {
		t.Fatal(err)
	}
	if got["close"].Text != "关闭" || len(got) != 2 {
		t.Errorf("merged = %v", got)
	}
}
