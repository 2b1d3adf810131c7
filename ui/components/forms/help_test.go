package forms

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgebench/forgebench/keymap"
)

// TestFooterNeverOffersOneKeyForTwoThings walks the rows of every form and
// checks that its footer does not list the same key twice: the footer is
// generated from the bindings, so a key listed with two meanings means one
// of them is a lie.
func TestFooterNeverOffersOneKeyForTwoThings(t *testing.T) {
	cases := []struct {
		name string
		form func(t *testing.T) Form
	}{
		{"parameters", func(t *testing.T) Form { return NewParameters(testContext(t, paramsV2)) }},
		{"variables", func(t *testing.T) Form { return NewParameters(testContext(t, paramsV1)) }},
		{"tools", func(t *testing.T) Form { return NewPolicy(policyContext(t, policyDraft), "tools") }},
		{"regex", func(t *testing.T) Form { return NewRegex(testContext(t, regexDraft)) }},
		{"context", func(t *testing.T) Form { return NewContextOptions(testContext(t, contextDraft)) }},
		{"bindings", func(t *testing.T) Form { return NewBindings(testContext(t, bindingsDraft)) }},
		{"slot", func(t *testing.T) Form { return NewSlotOptions(testContext(t, slotDraft), 1) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := drive(t, c.form(t))
			for row := 0; row < 80; row++ {
				if row == 40 { // then the details of the first entry, where a form has them
					d = drive(t, c.form(t)).press("right")
				}
				seen := map[string]string{}
				for _, b := range d.Model.ShortHelp() {
					h := b.Help()
					if prev, ok := seen[h.Key]; ok && prev != h.Desc {
						t.Errorf("row %d: %q is listed as %q and as %q", row, h.Key, prev, h.Desc)
					}
					seen[h.Key] = h.Desc
				}
				d.press("down")
			}
		})
	}
}

// TestPickSaysWhatItPicks: p in the bindings form opens the capability
// picker (it replaces the binding's ref); its help once said "pick tools".
func TestPickSaysWhatItPicks(t *testing.T) {
	d := drive(t, NewBindings(testContext(t, bindingsDraft))).press("p")
	if !d.Model.CapturesInput() || !strings.Contains(sizedView(d.Model, 120, 30), "Replace the ref") {
		t.Fatalf("p does not open the ref picker:\n%s", sizedView(d.Model, 120, 30))
	}
	if desc := keymap.DefaultForms().Pick.Help().Desc; !strings.Contains(desc, "capability") {
		t.Errorf("p is described as %q, but it picks a capability", desc)
	}
}

// TestFormsCleanTextFromTheFile: a ref, a regex id and a slot option that
// carry escape sequences or a carriage return reach the form's view
// without them.
func TestFormsCleanTextFromTheFile(t *testing.T) {
	views := map[string]string{
		"bindings": sizedView(NewBindings(testContext(t, `{"schemaVersion":2,"id":"b","items":[],
			"capabilities":[{"ref":"x\u001b[31mred\u001b]0;t\u0007\r"}]}`)), 120, 30),
		"regex": sizedView(NewRegex(testContext(t, `{"schemaVersion":2,"id":"r","items":[],"regex":{"schemaVersion":1,
			"rules":[{"id":"r\u001b[31m1\r","stage":"history","pattern":"("}]}}`)), 120, 30),
	}
	for name, v := range views {
		for _, bad := range []string{"\x1b[31m", "\x1b]", "\r", "\a"} {
			if strings.Contains(v, bad) {
				t.Errorf("%s form view contains %q", name, bad)
			}
		}
	}
}

// At the editor width of a 120-column terminal (56 cells) option names
// have room; they were cut to a third of the width ("stripAssistantThi…").
func TestFieldNamesAreNotCutWhenTheValuesLeaveRoom(t *testing.T) {
	v := ansi.Strip(sizedView(NewSlotOptions(testContext(t, slotDraft), 1), 56, 20))
	if !strings.Contains(v, "stripAssistantThinking") || !strings.Contains(v, "includeLastUserMessage") {
		t.Fatalf("option names are cut although there is room:\n%s", v)
	}
}
