package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 20 item 6: a settings file whose bindings collide in one scope,
// or that names a key twice, is refused with both names in the error.
func TestConflictingBindingsAreRefusedNamingBoth(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		// quit takes "1" before the panel switch could see it.
		{`{"keys":{"quit":["1"]}}`, []string{`"quit"`, `"panel-presets"`, `"1"`}},
		// two panels on one key: the second is unreachable.
		{`{"keys":{"panel-session":["1"]}}`, []string{`"panel-presets"`, `"panel-session"`, `"1"`}},
		// a panel key the root takes first.
		{`{"keys":{"session.stats":["?"]}}`, []string{`"help"`, `"session.stats"`, `"?"`}},
		// two keys of one panel view.
		{`{"keys":{"agents.transcript":["f"]}}`, []string{`"agents.lifecycle"`, `"agents.transcript"`, `"f"`}},
		// a command key inside a text input steals a character.
		{`{"keys":{"find.regex":["r"]}}`, []string{`"find.regex"`, `"r"`, "typ"}},
		// ctrl+c always quits.
		{`{"keys":{"presets.save":["ctrl+c"]}}`, []string{`"presets.save"`, `"ctrl+c"`}},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		if err == nil {
			t.Errorf("%s: accepted, want a conflict", c.in)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %s", c.in, err, w)
			}
		}
	}
}

// Rebinding a key of one panel to a key another panel uses is no
// conflict: only one panel's keys are live at a time.
func TestBindingsOfDifferentScopesMayShareKeys(t *testing.T) {
	for _, in := range []string{
		`{"keys":{"session.stats":["x"]}}`,                    // x deletes in Presets, not in Session
		`{"keys":{"quit":["Q"],"agents.reload":["q"]}}`,       // q freed from quit
		`{"keys":{"form.text.line-start":["home","ctrl+a"]}}`, // the default, spelled out
	} {
		if _, err := Parse([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestDuplicateJSONKeysAreRefused(t *testing.T) {
	cases := map[string][]string{
		`{"theme":"dark","theme":"light"}`:                 {`duplicate`, `"theme"`},
		`{"keys":{"quit":["Q"],"quit":["x"]}}`:             {`duplicate`, `"quit"`, `"keys"`},
		`{"keys":{"quit":["Q"],"qu\u0069t":["x"]}}`:        {`duplicate`, `"quit"`},
		`{"keys":{"help":["?"]},"keys":{"quit":["Q"]}}`:    {`duplicate`, `"keys"`},
		`{"keys":{"\u001b[31m":["x"],"\u001b[31m":["y"]}}`: {`duplicate`, `"\x1b[31m"`},
	}
	for in, want := range cases {
		_, err := Parse([]byte(in))
		if err == nil {
			t.Errorf("%s: accepted", in)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %s", in, err, w)
			}
		}
	}
}

// A name made of escape sequences is shown quoted and escaped, never as
// the raw bytes a terminal would swallow (the CLI's stderr sanitiser
// then showed "").
func TestHostileNamesAreQuotedAndEscaped(t *testing.T) {
	cases := map[string]string{
		`{"keys":{"\u001b[2J\u009b31m":["x"]}}`: `"\x1b[2J\u009b31m"`,
		`{"\u001b]0;title\u0007":1}`:            `"\x1b]0;title\a"`,
		`{"keys":{"\u202equit":["x"]}}`:         `"\u202equit"`,
		`{"keys":{"quit":["\u001b[A"]}}`:        `"\x1b[A"`,
	}
	for in, want := range cases {
		_, err := Parse([]byte(in))
		if err == nil {
			t.Errorf("%s: accepted", in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, want) {
			t.Errorf("%s: error %q does not show %s", in, msg, want)
		}
		if strings.ContainsAny(msg, "\x1b\u009b\u202e\a") {
			t.Errorf("%s: error carries raw control characters: %q", in, msg)
		}
	}
}

// The README's example settings must load as written.
func TestReadmeSettingsExampleLoads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, `{"theme"`) {
			found = true
			if _, err := Parse([]byte(line)); err != nil {
				t.Errorf("README example %s: %v", line, err)
			}
		}
	}
	if !found {
		t.Fatal("no settings example in README.md")
	}
}

// countMembers counts the members of every object in v, as decoded (the
// last of duplicate names wins, so duplicates are counted once).
func countMembers(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := len(x)
		for _, e := range x {
			n += countMembers(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += countMembers(e)
		}
		return n
	}
	return 0
}

// FuzzDuplicateKeys checks the token pass against an independent count:
// a valid document has a duplicate exactly when the members encoding/json
// keeps are fewer than the member names in the text.
func FuzzDuplicateKeys(f *testing.F) {
	for _, seed := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `[{"a":1},{"a":2}]`, `{"a":[{"x":1,"x":1}]}`,
		`{"qu\u0069t":1,"quit":2}`, `{"a":{"a":{"a":1}}}`, `{"":1,"":2}`, `{"a":"a","b":"a"}`, `[[],{},""]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if err := strictDecode(data, &v); err != nil {
			return
		}
		names := 0
		dec := json.NewDecoder(bytes.NewReader(data))
		var objects []bool // per open container: object?
		var wantKey []bool
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch t := tok.(type) {
			case json.Delim:
				switch t {
				case '{', '[':
					objects = append(objects, t == '{')
					wantKey = append(wantKey, t == '{')
					continue
				case '}', ']':
					objects, wantKey = objects[:len(objects)-1], wantKey[:len(wantKey)-1]
				}
			case string:
				if n := len(objects); n > 0 && objects[n-1] && wantKey[n-1] {
					names++
					wantKey[n-1] = false
					continue
				}
			}
			if n := len(objects); n > 0 && objects[n-1] {
				wantKey[n-1] = true
			}
		}
		err := checkDuplicateKeys(data)
		if dup := countMembers(v) < names; dup != (err != nil) {
			t.Fatalf("%q: %d names, %d kept, error %v", data, names, countMembers(v), err)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\u009b\u202e") {
			t.Fatalf("raw control characters in %q", err)
		}
	})
}
