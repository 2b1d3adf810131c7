package forgev1

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// TestRenderCases runs testdata/render-cases.json through the CLI
// contract: each request must produce exactly the stored response.
func TestRenderCases(t *testing.T) {
	data, err := os.ReadFile("testdata/render-cases.json")
	if err != nil {
		t.Fatalf("read cases: %v", err)
	}
	root, err := jsonv.Parse(data)
	if err != nil {
		t.Fatalf("parse cases: %v", err)
	}
	obj := root.(*jsonv.Object)
	casesV, _ := obj.Get("cases")
	cases := casesV.([]any)
	if len(cases) < 80 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		co := c.(*jsonv.Object)
		nameV, _ := co.Get("name")
		req, _ := co.Get("request")
		want, _ := co.Get("response")
		t.Run(nameV.(string), func(t *testing.T) {
			got, err := RenderRequestJSON([]byte(jsonv.Stringify(req)))
			if err != nil {
				t.Fatalf("request rejected: %v", err)
			}
			if wantText := jsonv.Stringify(want) + "\n"; string(got) != wantText {
				t.Fatalf("response\n got %s\nwant %s", got, wantText)
			}
		})
	}
	badV, _ := obj.Get("badRequests")
	for _, b := range badV.([]any) {
		bo := b.(*jsonv.Object)
		nameV, _ := bo.Get("name")
		raw, _ := bo.Get("raw")
		t.Run("bad/"+nameV.(string), func(t *testing.T) {
			out, err := RenderRequestJSON([]byte(raw.(string)))
			if !errors.Is(err, ErrBadRequest) {
				t.Fatalf("got %q, %v; want ErrBadRequest", out, err)
			}
		})
	}
}

func TestDefaultLimit(t *testing.T) {
	src := strings.Repeat("x", DefaultLimit)
	if out, err := Render(src, Env{}, Options{}); err != nil || out != src {
		t.Fatalf("100000 characters: err %v", err)
	}
	_, err := Render(src+"y", Env{}, Options{})
	if err == nil || err.Kind != KindOutputLimit || err.Message != "forge-v1 template output exceeds 100000 characters." || err.Span != nil {
		t.Fatalf("100001 characters: %+v", err)
	}
	if _, err := Render("ab", Env{}, Options{Limit: -1}); err == nil || err.Message != "forge-v1 template output exceeds 0 characters." {
		t.Fatalf("negative limit means zero: %+v", err)
	}
}

func TestMacroSizeLimit(t *testing.T) {
	atLimit := strings.Repeat("y", MaxExtensionOutput)
	overLimit := strings.Repeat("😀", MaxExtensionOutput/2) + "z"
	macros := NewMacroResolver(map[string]Macro{"ok": StaticMacro(atLimit), "big": StaticMacro(overLimit)})
	out, err := Render("{{ ok }}", Env{}, Options{Macros: macros})
	if err != nil || out != atLimit {
		t.Fatalf("macro at limit: %v", err)
	}
	_, err = Render("{{ extensions.big }}", Env{}, Options{Macros: macros})
	if err == nil || err.Kind != KindExtensionLimit || err.Message != "forge-v1 extension big exceeds 16384 characters." {
		t.Fatalf("macro over limit: %+v", err)
	}
}

func TestMacroResolverCachesAndExposesResolved(t *testing.T) {
	calls := 0
	var seen string
	macros := NewMacroResolver(map[string]Macro{
		"base": {Render: func(Env) (string, error) { calls++; return "B", nil }},
		"top": {Dependencies: []string{"extensions.base"}, Render: func(env Env) (string, error) {
			seen = jsonv.Stringify(env.Extensions)
			return "T", nil
		}},
	})
	env := Env{Parameters: jsonv.NewObject()}
	for i := 0; i < 3; i++ {
		out, err := Render("{{ top }}{{ base }}{{ extensions.base }}", env, Options{Macros: macros})
		if err != nil || out != "TBB" {
			t.Fatalf("render %d: %q %v", i, out, err)
		}
	}
	if calls != 1 {
		t.Fatalf("base rendered %d times, want 1 (cached)", calls)
	}
	if seen != `{"base":"B"}` {
		t.Fatalf("top saw extensions %s", seen)
	}
	if got := jsonv.Stringify(macros.Resolved()); got != `{"base":"B","top":"T"}` {
		t.Fatalf("Resolved = %s", got)
	}
	macros.Reset()
	if macros.Resolved().Len() != 0 {
		t.Fatal("Reset kept values")
	}
	if _, err := Render("{{ base }}", env, Options{Macros: macros}); err != nil || calls != 2 {
		t.Fatalf("after Reset: calls %d err %v", calls, err)
	}
}

func TestAnalyzeDependencies(t *testing.T) {
	tpl, err := Parse("{{ runtime.cwd | upper }}{% if tools %}{{ x.y }}{% else %}{{ extensions.m | bad }}{% endif %}")
	if err != nil {
		t.Fatal(err)
	}
	a := tpl.Analyze()
	var got []string
	for _, d := range a.Dependencies {
		got = append(got, d.Kind+":"+strings.Join(d.Path, ".")+d.Filter)
	}
	want := "runtime:runtime.cwd filter:upper legacy:tools legacy:x.y extensions:extensions.m"
	if strings.Join(got, " ") != want {
		t.Fatalf("dependencies = %s", strings.Join(got, " "))
	}
	if len(a.Errors) != 1 || a.Errors[0].Message != "Unknown forge-v1 filter: bad" || *a.Errors[0].Span != (Span{Start: 58, End: 82}) {
		t.Fatalf("errors = %+v", a.Errors)
	}
	if first := tpl.FirstError(); first == nil || first.Message != a.Errors[0].Message {
		t.Fatalf("FirstError = %+v", first)
	}
}

func TestDiagnostics(t *testing.T) {
	cases := []struct {
		src, want string
	}{
		{"{{ a", "forge-v1 parse error: Unclosed output tag {{"},
		{"{{ a | nope }}", "Unknown forge-v1 filter: nope"},
		{"{{ missing }}", "forge-v1 render error: Undefined forge-v1 path: {{missing}}"},
	}
	for _, c := range cases {
		_, err := Render(c.src, Env{}, Options{})
		if err == nil || err.Diagnostic() != c.want {
			t.Errorf("%q: diagnostic %v, want %q", c.src, err, c.want)
		}
	}
}

func TestTemplateReuseIsStable(t *testing.T) {
	tpl, perr := Parse("{% if parameters.a %}{{ parameters.a | json }}{% else %}none{% endif %}")
	if perr != nil {
		t.Fatal(perr)
	}
	p1 := jsonv.FromGo(map[string]any{"a": []any{1, "x"}})
	p2 := jsonv.FromGo(map[string]any{"a": 0})
	for i := 0; i < 2; i++ {
		if out, err := tpl.Render(Env{Parameters: p1}, Options{}); err != nil || out != `[1,"x"]` {
			t.Fatalf("p1: %q %v", out, err)
		}
		if out, err := tpl.Render(Env{Parameters: p2}, Options{}); err != nil || out != "none" {
			t.Fatalf("p2: %q %v", out, err)
		}
	}
}

// TestCaseMappingTable checks upper/lower against testdata/case-mapping.json:
// [input, toUpperCase(), toLowerCase()] as a JavaScript engine computed
// them, covering every code point whose full mapping has several code
// points plus final-sigma contexts.
func TestCaseMappingTable(t *testing.T) {
	data, err := os.ReadFile("testdata/case-mapping.json")
	if err != nil {
		t.Fatalf("read table: %v", err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatalf("parse table: %v", err)
	}
	rows := v.([]any)
	if len(rows) < 100 {
		t.Fatalf("table has %d rows", len(rows))
	}
	for _, r := range rows {
		row := r.([]any)
		in, upper, lower := row[0].(string), row[1].(string), row[2].(string)
		if got := changeCase(in, true); got != upper {
			t.Errorf("upper(%q) = %q, want %q", in, got, upper)
		}
		if got := changeCase(in, false); got != lower {
			t.Errorf("lower(%q) = %q, want %q", in, got, lower)
		}
	}
	if got := changeCase("a\xed\xa0\x80ß", true); got != "A\xed\xa0\x80SS" {
		t.Errorf("lone surrogate not preserved: %q", got)
	}
}

func TestParseDepthGuard(t *testing.T) {
	deep := strings.Repeat("{% if a %}", MaxParseDepth+1)
	_, err := Parse(deep)
	if err == nil || err.Message != "forge-v1 template nesting is too deep to parse." {
		t.Fatalf("err = %+v", err)
	}
	ok := strings.Repeat("{% if a %}", 100) + strings.Repeat("{% endif %}", 100)
	if _, err := Parse(ok); err != nil {
		t.Fatalf("100 levels: %+v", err)
	}
}
