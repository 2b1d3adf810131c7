package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/forgebench/forgebench/test/hostile"
)

// Ids and file names come from the files too: a capability or profile id
// with an OSC 52 sequence, and a resource file named with one (whose id is
// then the file name), reached the terminal raw through list and validate.
// Human output is now sanitised as a whole; --json keeps the id exact, its
// control and format characters escaped.
func TestEscapedIDsAndFileNames(t *testing.T) {
	st, g := hostileArgs(t)
	const id = "cap\x1b]52;c;aGFja2Vk\x07\u009b31m\u202eid"
	for _, cmd := range [][]string{
		{"capability", "list"}, {"capability", "validate"}, {"profile", "list"}, {"profile", "validate"},
		{"preset", "list"}, {"preset", "validate", "--all"}, {"capability", "show", id}, {"capability", "bindings", "escaped-id"},
	} {
		_, out, errOut := runWithin(t, append(append([]string{}, g...), cmd...)...)
		hostile.AssertClean(t, strings.Join(cmd, " ")+" (stdout)", out)
		hostile.AssertClean(t, strings.Join(cmd, " ")+" (stderr)", errOut)
	}
	_, out, _ := runCLI(t, append(g, "capability", "list", "--json")...)
	if !strings.Contains(out, `"id": "cap\u001b]52;c;aGFja2Vk\u0007\u009b31m\u202eid"`) {
		t.Errorf("capability list --json lost the exact id:\n%s", out)
	}
	if len(st.EscapedResources) > 0 {
		_, out, _ = runCLI(t, append(g, "preset", "list", "--json")...)
		if !strings.Contains(out, `"id": "evil\u001b]52;c;aGFja2Vk\u0007\u009b31m\u202e"`) {
			t.Errorf("preset list --json lost the exact id of the escaped file name:\n%s", out)
		}
	}
}

// A usage error quotes the arguments, which can be hostile file names
// expanded by a shell glob.
func TestUsageErrorsAreSanitised(t *testing.T) {
	code, _, errOut := runCLI(t, "session", "show", "a.jsonl", "b\x1b]52;c;aGk=\x07\u202e.jsonl")
	if code != exitUsage {
		t.Fatalf("exit %d: %q", code, errOut)
	}
	hostile.AssertClean(t, "usage error", errOut)
}

// The outputs that are JSON without a --json flag — a --request run and
// fingerprint --canonical — keep their values: a bidi control in the input
// is printed as an escape (the JSON writer), not dropped.
func TestExactOutputsWithoutAJSONFlag(t *testing.T) {
	dir := t.TempDir()
	request := filepath.Join(dir, "request.json")
	if err := os.WriteFile(request, []byte(`{"template":"A\u202eB","env":{"runtime":{},"parameters":{},"extensions":{}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, errOut := runCLI(t, "template", "render", "--request", request); !strings.Contains(out, `A\u202eB`) {
		t.Errorf("template render --request changed the text: %q %q", out, errOut)
	}
	if _, out, errOut := runCLI(t, "fingerprint", "--canonical", request); !strings.Contains(out, `A\u202eB`) {
		t.Errorf("fingerprint --canonical changed the text: %q %q", out, errOut)
	}
	// Rendered as a human, the same template is cleaned.
	tmpl := filepath.Join(dir, "t.tmpl")
	if err := os.WriteFile(tmpl, []byte("A\u202eB"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runCLI(t, "template", "render", tmpl); strings.Contains(out, "\u202e") {
		t.Errorf("template render printed a raw bidi override: %q", out)
	}
}

// Every flag that selects JSON output is one exactOutput knows, so a new
// command's JSON is never run through the human sanitiser (which would
// drop C1 and bidi controls from the values).
func TestEveryJSONFlagIsExactOutput(t *testing.T) {
	parser, err := kong.New(&CLI{}, kong.Vars{"leaf_help": leafHelp})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if !strings.Contains(strings.ToLower(f.Name), "json") && !strings.Contains(f.Help, "JSON") {
				continue
			}
			var v reflect.Value
			switch {
			case f.Target.Kind() == reflect.Bool:
				v = reflect.ValueOf(true)
			case f.Target.Kind() == reflect.String && strings.Contains(f.Enum, "json"):
				v = reflect.ValueOf("json")
			case f.Target.Kind() == reflect.String && f.Name == "request":
				v = reflect.ValueOf("request.json")
			default:
				continue // a FILE holding JSON input (--runtime, --macros …)
			}
			saved := reflect.New(f.Target.Type()).Elem()
			saved.Set(f.Target)
			f.Target.Set(v)
			seen++
			if !exactOutput(n.Target) {
				t.Errorf("%s --%s prints JSON but is not exact output", n.Path(), f.Name)
			}
			f.Target.Set(saved)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(parser.Model.Node)
	if seen < 30 {
		t.Errorf("only %d JSON flags found; the walk is broken", seen)
	}
}
