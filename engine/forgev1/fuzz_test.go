package forgev1

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

var fuzzSeeds = []string{
	"Hi {{ parameters.name }} / {{ parameters.name | upper }} / {% if runtime.tool.read %}Y{% else %}N{% endif %}",
	"{{ a", "{%}", "{% if %}", "{% if x == 'y' %}a{% else %}b{% endif %}", "{{ x | json | xml | trim | lower }}",
	"{% if a %}{% if b %}{% endif %}", "😀{{ parameters.__proto__ }}", "{{ parameters.toString | upper }}",
	"{{{{}}}}{%%}", "{% if parameters.n != \"3\" %}x{% endif %}", "{{ cwd }}{{ tools }}{{ m }}",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tpl, err := Parse(src)
		if err != nil {
			if err.Stage != StageParse || err.Kind != KindParse || err.Span == nil {
				t.Fatalf("malformed parse error %+v", err)
			}
			if n := jsonv.UTF16Len(src); err.Span.Start < 0 || err.Span.Start > err.Span.End || err.Span.End > n {
				t.Fatalf("span %v outside source of length %d", *err.Span, n)
			}
			return
		}
		a := tpl.Analyze()
		if (len(a.Errors) == 0) != (tpl.FirstError() == nil) {
			t.Fatal("Analyze and FirstError disagree")
		}
	})
}

func FuzzRender(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, `{"name":"Ada","n":3,"o":{"b":[1,null]},"s":"\ud800 ß"}`, 200)
	}
	runtime := jsonv.FromGo(map[string]any{"cwd": "/w", "tool": map[string]any{"read": true}, "selectedToolsText": "read"})
	f.Fuzz(func(t *testing.T, src, params string, limit int) {
		p, perr := jsonv.Parse([]byte(params))
		if perr != nil {
			p = nil
		}
		if limit > 1<<20 || limit < -1<<20 {
			limit = 1 << 10
		}
		macros := newMacros()
		out, err := Render(src, Env{Runtime: runtime, Parameters: p}, Options{Limit: limit, Macros: macros})
		// Render parses in a pooled workspace; a template from Parse (its own
		// memory) must render the same, error for error.
		detachedOut, detachedErr := renderDetached(src, Env{Runtime: runtime, Parameters: p}, limit, newMacros())
		if detachedOut != out || (err == nil) != (detachedErr == nil) || (err != nil && err.Message != detachedErr.Message) {
			t.Fatalf("Render = %q, %v; Parse+Render = %q, %v", out, err, detachedOut, detachedErr)
		}
		if err != nil {
			if err.Message == "" || err.Kind == "" {
				t.Fatalf("empty error %+v", err)
			}
			return
		}
		max := limit
		if limit == 0 {
			max = DefaultLimit
		} else if limit < 0 {
			max = 0
		}
		if n := jsonv.UTF16Len(out); n > max {
			t.Fatalf("output of %d units exceeds limit %d", n, max)
		}
	})
}

func newMacros() *MacroResolver {
	return NewMacroResolver(map[string]Macro{
		"m":    StaticMacro("macro"),
		"loop": {Dependencies: []string{"extensions.loop"}, Render: func(Env) (string, error) { return "x", nil }},
	})
}

// renderDetached is Render through the public steps.
func renderDetached(src string, env Env, limit int, macros *MacroResolver) (string, *Error) {
	tpl, err := Parse(src)
	if err != nil {
		return "", err
	}
	if err := tpl.FirstError(); err != nil {
		return "", err
	}
	return tpl.Render(env, Options{Limit: limit, Macros: macros})
}
