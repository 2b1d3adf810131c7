package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// helpKeyArgs finds, in one package's files, the functions that pass one
// of their parameters on as the key name of key.WithHelp (keymap's
// bind(keys, helpKey, desc)), and the local names given to such a
// function (b := bind): name → index of that parameter.
func helpKeyArgs(files map[string]*ast.File) map[string]int {
	out := map[string]int{}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			params := map[string]int{}
			i := 0
			for _, field := range fn.Type.Params.List {
				for _, name := range field.Names {
					params[name.Name] = i
					i++
				}
				if len(field.Names) == 0 {
					i++
				}
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || calleeName(call) != "key.WithHelp" || len(call.Args) == 0 {
					return true
				}
				if id, ok := call.Args[0].(*ast.Ident); ok {
					if at, ok := params[id.Name]; ok {
						out[fn.Name.Name] = at
					}
				}
				return true
			})
		}
	}
	for _, f := range files { // aliases: b := bind
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, rhs := range as.Rhs {
				src, ok1 := rhs.(*ast.Ident)
				dst, ok2 := as.Lhs[i].(*ast.Ident)
				if !ok1 || !ok2 {
					continue
				}
				if at, known := out[src.Name]; known {
					out[dst.Name] = at
				}
			}
			return true
		})
	}
	return out
}

// testKits are packages under ui/ that only tests import: their text is
// the failure messages of tests, read by developers and never drawn, so
// the bypass rule does not apply. Each says why.
var testKits = map[string]string{
	"ui/uitest": "the UI test kit (harness, goldens, fake editor): its strings are t.Errorf messages and fakes, never drawn",
}

// TestNoHumanTextBypassesTheCatalog fails for a string literal of a
// package of ui/, cli/, keymap/ or config/ (test kits aside) that is human
// text outside a T or Mark call. It prints file:line: literal for each.
func TestNoHumanTextBypassesTheCatalog(t *testing.T) {
	var offenders []string
	for _, p := range parsePackages(t, "ui", "cli", "keymap", "config") {
		if _, kit := testKits[p.dir]; kit {
			continue
		}
		helpKeys := helpKeyArgs(p.files)
		for path, f := range p.files {
			offenders = append(offenders, bypasses(p.fset, path, f, helpKeys)...)
		}
	}
	sort.Strings(offenders)
	for _, o := range offenders {
		t.Error(o)
	}
	if len(offenders) > 0 {
		t.Logf("%d literals bypass the catalog; wrap them in i18n.T/i18n.Mark, or end the line with //i18n:raw <reason>", len(offenders))
	}
}

// rawComment is the per-line escape: //i18n:raw and a reason.
var rawComment = regexp.MustCompile(`^//\s*i18n:raw\s+\S`)

// bypasses returns "file:line: literal" for every human-text literal of f
// that is not exempt (see humanText and exempt).
func bypasses(fset *token.FileSet, path string, f *ast.File, helpKeys map[string]int) []string {
	raw := map[int]bool{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if rawComment.MatchString(c.Text) {
				raw[fset.Position(c.Pos()).Line] = true
			}
		}
	}
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		defer func() { stack = append(stack, n) }()
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		pos := fset.Position(lit.Pos())
		s, err := strconv.Unquote(lit.Value)
		if err != nil || raw[pos.Line] || !humanText(s) || exempt(lit, stack, helpKeys) {
			return true
		}
		out = append(out, pos.String()+": "+lit.Value)
		return true
	})
	return out
}

// verb matches a fmt verb with its flags, index, width and precision.
var verb = regexp.MustCompile(`%[-+# 0]*(\[\d+\])?(\*|\d+)?(\.(\*|\d+))?(\[\d+\])?[a-zA-Z%]`)

// tokenLike matches what is an identifier rather than text: no spaces, only
// lower-case ASCII letters, digits and the punctuation of ids, key names,
// paths, flags and colours ("json", "ctrl+c", "presets/list", "#ff0088").
var tokenLike = regexp.MustCompile(`^[a-z0-9_.:/+#=@$%*\-\[\]<>,|]*$`)

// envName matches an environment variable's name ("EDITOR", "NO_COLOR").
var envName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// humanText is the rule for a literal a user reads: after the format verbs
// are removed it has a run of two or more letters, and it is not a token
// (tokenLike). So "Quit?", "no sessions", "Presets", "%d items" and "按键"
// are text; "json", "ctrl+c", "%s: %d", "─", " · " and "#ff0088" are not.
// A lone lower-case word ("none") counts as a token: wrap it in T anyway
// when the user reads it.
func humanText(s string) bool {
	if t := strings.TrimSpace(s); tokenLike.MatchString(t) || envName.MatchString(t) {
		return false
	}
	s = verb.ReplaceAllString(s, " ")
	run := 0
	letters := false
	for _, r := range s {
		if unicode.IsLetter(r) {
			run++
			if run >= 2 {
				letters = true
				break
			}
		} else {
			run = 0
		}
	}
	return letters
}

// nonDisplay are calls whose string arguments are never shown: parsing,
// matching, environment, key names.
var nonDisplay = map[string]bool{
	"strings.HasPrefix": true, "strings.HasSuffix": true, "strings.TrimPrefix": true, "strings.TrimSuffix": true,
	"strings.CutPrefix": true, "strings.CutSuffix": true, "strings.Contains": true, "strings.ContainsAny": true,
	"strings.Index": true, "strings.LastIndex": true, "strings.Split": true, "strings.SplitN": true, "strings.Cut": true,
	"strings.EqualFold": true, "strings.Count": true, "strings.Trim": true, "strings.TrimLeft": true, "strings.TrimRight": true,
	"strings.IndexAny": true, "strings.Fields": true, "strings.NewReplacer": true,
	"os.Getenv": true, "os.LookupEnv": true, "os.Setenv": true, "exec.Command": true, "exec.LookPath": true,
	"regexp.MustCompile": true, "key.WithKeys": true, "lipgloss.Color": true, "filepath.Join": true,
}

// exempt reports whether the literal sits where a string is not shown:
// the key of a T/In/Mark call, an import path, a struct tag, a case label,
// an operand of == or !=, an index, a map literal's key, the key name of
// key.WithHelp, or an argument of a nonDisplay call.
func exempt(lit *ast.BasicLit, stack []ast.Node, helpKeys map[string]int) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.ImportSpec, *ast.CaseClause:
		return true
	case *ast.Field:
		return p.Tag == lit
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.IndexExpr:
		return p.Index == lit
	case *ast.KeyValueExpr:
		if p.Key != lit || len(stack) < 2 {
			return false
		}
		cl, ok := stack[len(stack)-2].(*ast.CompositeLit)
		if !ok {
			return false
		}
		_, isMap := cl.Type.(*ast.MapType)
		return isMap
	case *ast.CallExpr:
		if arg, ok := i18nCall(p); ok && arg < len(p.Args) && p.Args[arg] == lit {
			return true
		}
		if jsonMemberName(p, lit) {
			return true
		}
		name := calleeName(p)
		if name == "key.WithHelp" {
			return len(p.Args) > 0 && p.Args[0] == lit
		}
		if fn, ok := p.Fun.(*ast.Ident); ok {
			if at, ok := helpKeys[fn.Name]; ok {
				return at < len(p.Args) && p.Args[at] == lit
			}
		}
		return nonDisplay[name]
	}
	return false
}

// jsonMember are the methods of a JSON object (engine/jsonv.Object) whose
// first argument is a member name: a JSON key, contract in every language.
var jsonMember = map[string]bool{"Set": true, "Get": true, "GetString": true, "Has": true, "Delete": true}

// jsonMemberName reports whether lit is the member name of an x.Set(…),
// x.Get(…) … call: a literal without white space, as JSON keys are.
func jsonMemberName(call *ast.CallExpr, lit *ast.BasicLit) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && jsonMember[sel.Sel.Name] && len(call.Args) > 0 && call.Args[0] == lit && !strings.ContainsAny(lit.Value, " \t")
}

// calleeName is "pkg.Func" for a call of a package's function.
func calleeName(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return x.Name + "." + sel.Sel.Name
}

func TestHumanTextRule(t *testing.T) {
	for s, want := range map[string]bool{
		"Quit forgebench?": true, "no sessions": true, "Presets": true, "%d items": true, "按键": true,
		"(none)": true, "esc closes": true,
		"EDITOR": false, "FORGEBENCH_TRACE": false,
		"json": false, "ctrl+c": false, "%s: %d": false, " · ": false, "#ff0088": false, "presets/list": false,
		"": false, "─": false, "x": false, "%-*s": false, "\x1b[0m": false, "%d%%": false,
	} {
		if got := humanText(s); got != want {
			t.Errorf("humanText(%q) = %v", s, got)
		}
	}
}

// The member name of a JSON object call is a key, contract in every
// language; text in the same call is not exempt.
func TestJSONMemberNamesAreExempt(t *testing.T) {
	src := `package p
func f() { o.Set("autoActivate", 1); o.Set("Human text here", 2); o.Set("name", "Shown to people") }`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(bypasses(fset, "x.go", f, nil), "\n")
	if strings.Contains(got, "autoActivate") || !strings.Contains(got, `"Human text here"`) || !strings.Contains(got, `"Shown to people"`) {
		t.Errorf("offenders:\n%s", got)
	}
}

// The help key of a binding is a key name, not text: the first argument of
// key.WithHelp and the argument a helper forwards there (keymap's
// bind(keys, helpKey, desc), called directly or through an alias), and
// only that argument — the description beside it, and the same position
// of a call that forwards nothing to key.WithHelp, are still checked.
func TestHelpKeyArgumentsAreExempt(t *testing.T) {
	src := `package p
func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}
func label(keys []string, title, desc string) string { return title + desc }
func f() {
	bind([]string{"F", "end"}, "F/end", "Newest and follow")
	b := bind
	b([]string{"alt+left"}, "alt+←", "Word to the left")
	label(nil, "Shown as a title", "Shown as well")
	key.WithHelp("Some Key", "Help text here")
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{"x.go": f}
	got := strings.Join(bypasses(fset, "x.go", f, helpKeyArgs(files)), "\n")
	for _, exempt := range []string{`"F/end"`, `"alt+←"`, `"Some Key"`} {
		if strings.Contains(got, exempt) {
			t.Errorf("%s is a help key, reported:\n%s", exempt, got)
		}
	}
	for _, text := range []string{`"Newest and follow"`, `"Word to the left"`, `"Shown as a title"`, `"Shown as well"`, `"Help text here"`} {
		if !strings.Contains(got, text) {
			t.Errorf("%s is text, not reported:\n%s", text, got)
		}
	}
}
