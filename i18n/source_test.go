package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// sourceRoots are the trees whose Go files the catalog tests read: every
// package that may call T or Mark.
var sourceRoots = []string{"ui", "cli", "keymap", "config", "themes"}

// goPackage is one parsed directory of non-test Go files.
type goPackage struct {
	dir   string // relative to the repository, "ui/common"
	fset  *token.FileSet
	files map[string]*ast.File // path → file
}

// repoRoot is the repository's root, one up from this package.
const repoRoot = ".."

// parsePackages parses every non-test Go file under the roots, one
// goPackage per directory.
func parsePackages(t *testing.T, roots ...string) []goPackage {
	t.Helper()
	byDir := map[string]*goPackage{}
	fset := token.NewFileSet()
	for _, root := range roots {
		err := filepath.WalkDir(filepath.Join(repoRoot, root), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(repoRoot, filepath.Dir(path))
			rel = filepath.ToSlash(rel)
			p := byDir[rel]
			if p == nil {
				p = &goPackage{dir: rel, fset: fset, files: map[string]*ast.File{}}
				byDir[rel] = p
			}
			p.files[path] = f
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []goPackage
	for _, p := range byDir {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out
}

// i18nCall reports whether call is i18n.<name>(…) and which argument is its
// key: T and Mark take it first, In second.
func i18nCall(call *ast.CallExpr) (keyArg int, ok bool) {
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !isSel {
		return 0, false
	}
	if x, isIdent := sel.X.(*ast.Ident); !isIdent || x.Name != "i18n" {
		return 0, false
	}
	switch sel.Sel.Name {
	case "T", "Mark", "Errorf":
		return 0, true
	case "In":
		return 1, true
	}
	return 0, false
}

// usedKey is a literal key found in the source.
type usedKey struct {
	key string
	pos token.Position
}

// usedKeys collects the literal key of every T, In and Mark call.
func usedKeys(t *testing.T) []usedKey {
	var out []usedKey
	for _, p := range parsePackages(t, sourceRoots...) {
		for _, f := range p.files {
			ast.Inspect(f, func(n ast.Node) bool {
				if help, ok := kongHelpTag(p, n); ok {
					out = append(out, help)
					return true
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				arg, ok := i18nCall(call)
				if !ok || arg >= len(call.Args) {
					return true
				}
				lit, ok := call.Args[arg].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true // a marked value; its literal is found at its Mark
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatalf("%s: %v", p.fset.Position(lit.Pos()), err)
				}
				out = append(out, usedKey{s, p.fset.Position(lit.Pos())})
				return true
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// kongHelpTag is the help:"…" tag of a struct field in cli/, as written
// (kong's ${var} and $$ included): the CLI's help translates each one by
// this key when it prints (cli/help.go).
func kongHelpTag(p goPackage, n ast.Node) (usedKey, bool) {
	field, ok := n.(*ast.Field)
	if !ok || field.Tag == nil || (p.dir != "cli" && !strings.HasPrefix(p.dir, "cli/")) {
		return usedKey{}, false
	}
	tag, err := strconv.Unquote(field.Tag.Value)
	if err != nil {
		return usedKey{}, false
	}
	help, ok := reflect.StructTag(tag).Lookup("help")
	if !ok || help == "" {
		return usedKey{}, false
	}
	return usedKey{help, p.fset.Position(field.Tag.Pos())}, true
}

// TestEveryUsedKeyIsTranslated fails when the zh-CN catalog lacks a key
// the code uses, when a plural entry exists in one language only, and when
// the English catalog holds anything but plural entries of used keys.
func TestEveryUsedKeyIsTranslated(t *testing.T) {
	zh, err := Entries(SimplifiedChinese)
	if err != nil {
		t.Fatal(err)
	}
	en, err := Entries(English)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	missing := 0
	for _, u := range usedKeys(t) {
		if used[u.key] {
			continue
		}
		used[u.key] = true
		if _, ok := zh[u.key]; !ok {
			missing++
			t.Errorf("%s: zh-CN lacks %q", u.pos, u.key)
		}
	}
	if missing > 0 {
		t.Logf("%d keys missing from locales/zh-CN.json", missing)
	}
	for key, e := range en {
		if !e.Plural() {
			t.Errorf("en %q: the English catalog holds only plural entries (English prints the key)", key)
		}
		if z, ok := zh[key]; ok && !z.Plural() {
			t.Errorf("%q: plural in en, plain in zh-CN", key)
		}
		if !used[key] {
			t.Errorf("en %q: no code uses it", key)
		}
	}
	for key, e := range zh {
		if e.Plural() {
			if _, ok := en[key]; !ok {
				t.Errorf("%q: plural in zh-CN, missing from locales/en.json", key)
			}
		}
	}
}

// TestNoUnusedTranslations keeps the zh-CN catalog to keys some code uses,
// so a renamed string does not leave its old translation behind.
func TestNoUnusedTranslations(t *testing.T) {
	zh, _ := Entries(SimplifiedChinese)
	used := map[string]bool{}
	for _, u := range usedKeys(t) {
		used[u.key] = true
	}
	for key := range zh {
		if !used[key] {
			t.Errorf("zh-CN %q: no code uses it", key)
		}
	}
}

// TestTranslationsKeepTheKeysVerbs fails when a translation (or a plural
// form) formats its arguments with other verbs than its key: every text
// uses each argument the key uses, with the same verb. The order may change
// with explicit indexes (%[2]s), as Chinese word order needs.
func TestTranslationsKeepTheKeysVerbs(t *testing.T) {
	for _, l := range Langs() {
		entries, err := Entries(l)
		if err != nil {
			t.Fatal(err)
		}
		for key, e := range entries {
			want, err := formatVerbs(key)
			if err != nil {
				t.Errorf("%s key %q: %v", l, key, err)
				continue
			}
			for _, text := range e.Texts() {
				got, err := formatVerbs(text)
				if err != nil {
					t.Errorf("%s %q → %q: %v", l, key, text, err)
				} else if got != want {
					t.Errorf("%s %q → %q: verbs %s, the key has %s", l, key, text, got, want)
				}
			}
		}
	}
}

// TestContractPackagesNeverImportI18n keeps the catalog out of the code
// whose texts are contract: engine/, session/ and resources/ reproduce
// pi-forge's and Pi's messages exactly and never translate.
func TestContractPackagesNeverImportI18n(t *testing.T) {
	for _, p := range parsePackages(t, "engine", "session", "resources", "services") {
		for path, f := range p.files {
			for _, imp := range f.Imports {
				if imp.Path.Value == `"github.com/forgebench/forgebench/i18n"` {
					t.Errorf("%s imports i18n: its texts are contract", path)
				}
			}
		}
	}
}
