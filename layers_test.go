package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/forgebench/forgebench/"

// layerRules are docs/ARCHITECTURE.md's "may import" for the packages
// whose direction matters most: a package (directory, and with "/…" every
// directory below it) may import, of this module's packages, only those
// the allowed prefixes name ("" for none: a leaf). Third-party and standard
// packages are not checked here.
var layerRules = []struct {
	pkg     string
	allowed []string
}{
	{"engine/…", []string{"engine/"}},
	{"engine/jsregex", nil},
	{"session", []string{"engine/", "session/catalog", "session/internal/", "internal/flock", "internal/privcache", "internal/regfile"}},
	{"session/internal/…", []string{"engine/"}},
	{"session/stats", []string{"engine/", "session", "session/catalog", "session/internal/", "internal/regfile"}},
	{"session/…", []string{"engine/", "session", "session/", "internal/"}},
}

// TestPackagesImportOnlyDownward holds the layering: the engine imports
// nothing outside it (engine/jsregex nothing of this module at all), the
// session format nothing above it, and no session package the CLI, the
// TUI, the services or the library.
func TestPackagesImportOnlyDownward(t *testing.T) {
	imports := map[string]map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok {
				if imports[dir] == nil {
					imports[dir] = map[string]bool{}
				}
				imports[dir][rest] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(imports["session/stats"]) == 0 || len(imports["engine/compile"]) == 0 {
		t.Fatalf("the walk found too little: %d packages", len(imports))
	}
	for dir, deps := range imports {
		rule := ruleFor(dir)
		if rule < 0 {
			continue
		}
		for dep := range deps {
			if !allowedImport(dep, layerRules[rule].allowed) {
				t.Errorf("%s imports %s; ARCHITECTURE.md allows it only %v", dir, dep, layerRules[rule].allowed)
			}
		}
	}
}

// ruleFor is the index of the rule for dir: the one naming it exactly,
// else the deepest "/…" rule it is in (-1: none).
func ruleFor(dir string) int {
	rule, depth := -1, -1
	for k, r := range layerRules {
		if dir == r.pkg {
			return k
		}
		if base, tree := strings.CutSuffix(r.pkg, "/…"); tree && (dir == base || strings.HasPrefix(dir, base+"/")) && len(base) > depth {
			rule, depth = k, len(base)
		}
	}
	return rule
}

// allowedImport reports whether dep is one of the allowed packages, or
// under an allowed prefix that ends in "/".
func allowedImport(dep string, allowed []string) bool {
	for _, a := range allowed {
		if dep == a || strings.HasSuffix(a, "/") && strings.HasPrefix(dep, a) {
			return true
		}
	}
	return false
}
