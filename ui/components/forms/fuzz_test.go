package forms

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// FuzzEscapedString checks that what the escaped string editor shows parses
// back to the same string, and that parsing arbitrary editor text never
// panics.
func FuzzEscapedString(f *testing.F) {
	for _, s := range []string{"", "\n\n", "a\tb", `quote " and \ slash`, "\u2028", "\x00\x1f", "é🙂"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fd := field{kind: kindString, escaped: true}
		if !isValidUTF8(s) {
			return
		}
		got, err := fd.parse(escapeString(s))
		if err != nil || got != s {
			t.Fatalf("escape round trip of %q: got %q, %v", s, got, err)
		}
		_, _ = fd.parse(s)
		_, _, _ = parseAssignment(s)
		num := field{kind: kindNumber}
		if v, err := num.parse(s); err == nil {
			if _, ok := v.(float64); !ok {
				t.Fatalf("number editor produced %T", v)
			}
		}
	})
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// FuzzForms builds every form over arbitrary JSON drafts, renders it and
// presses a few keys: no panic, views always fit, the draft never changes.
func FuzzForms(f *testing.F) {
	for _, s := range []string{slotDraft, policyDraft, paramsV2, paramsV1, regexDraft, bindingsDraft, contextDraft,
		`{}`, `{"items":[1,"x",null],"tools":[],"regex":{"rules":{}},"capabilities":{"a":1},"context":7}`,
		`{"items":[{"kind":"slot","slot":"chat-history","options":[1]}],"regex":{"rules":[null,{"id":3}]},"capabilities":[null,{"ref":5,"overrides":"x"}]}`} {
		f.Add(s, "j")
	}
	keys := []string{"enter", "space", "down", "up", "right", "left", "a", "x", "K", "J", "R", "p", "m", "esc", "1"}
	f.Fuzz(func(t *testing.T, src string, keySeq string) {
		v, err := jsonv.Parse([]byte(src))
		if err != nil {
			return
		}
		obj, ok := v.(*jsonv.Object)
		if !ok {
			return
		}
		before := jsonv.Stringify(obj)
		_, diags := preset.ParseValue(obj, "fuzz.json", preset.ParseOptions{})
		ctx := Context{Com: testCommon(), Draft: obj, Diagnostics: diags, KnownTools: knownTools}
		forms := []Form{NewSlotOptions(ctx, 0), NewSlotOptions(ctx, 1), NewSlotOptions(ctx, -1), NewParameters(ctx),
			NewPolicy(ctx, "tools"), NewPolicy(ctx, "skills"), NewRegex(ctx), NewContextOptions(ctx), NewBindings(ctx)}
		for _, form := range forms {
			for i, r := range keySeq {
				if i > 12 {
					break
				}
				form, _ = form.Update(uitest.Key(keys[int(r)%len(keys)]))
			}
			for _, size := range [][2]int{{80, 24}, {30, 5}} {
				view := sizedView(form, size[0], size[1])
				lines := strings.Split(view, "\n")
				if len(lines) != size[1] {
					t.Fatalf("%s: %d lines, want %d", form.Title(), len(lines), size[1])
				}
				for _, l := range lines {
					if ansi.StringWidth(l) > size[0] {
						t.Fatalf("%s: line too wide: %q", form.Title(), ansi.Strip(l))
					}
				}
			}
			_ = form.ShortHelp()
		}
		if jsonv.Stringify(obj) != before {
			t.Fatal("a form mutated the draft")
		}
	})
}
