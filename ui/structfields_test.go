package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxStructFields is the most fields a struct in ui/ may have: a model
// that holds more is several models (issue 22), split it into parts
// that each own their state.
const maxStructFields = 25

// structFieldsKnownOver are structs allowed over the limit: none is since
// the Session panel was split (issue 22), and nothing may join them.
var structFieldsKnownOver = map[string]bool{}

// TestNoStructInUIHasTooManyFields counts the fields of every struct type
// declared in ui/... (not in tests; an embedded type counts as one) and
// fails for each over maxStructFields, listing them.
func TestNoStructInUIHasTooManyFields(t *testing.T) {
	var over []string
	stillOver := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			count := 0
			for _, field := range st.Fields.List {
				count += max(1, len(field.Names))
			}
			name := filepath.ToSlash(filepath.Join("ui", filepath.Dir(path))) + "." + ts.Name.Name
			if count > maxStructFields && structFieldsKnownOver[name] {
				stillOver[name] = true
			}
			if count > maxStructFields && !structFieldsKnownOver[name] {
				over = append(over, fmt.Sprintf("%s: %d fields (%s)", name, count, fset.Position(ts.Pos())))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range structFieldsKnownOver {
		if !stillOver[name] {
			over = append(over, name+": no longer over the limit (or gone); drop it from structFieldsKnownOver")
		}
	}
	slices.Sort(over)
	if len(over) > 0 {
		t.Fatalf("structs over %d fields; split them into parts:\n%s", maxStructFields, strings.Join(over, "\n"))
	}
}
