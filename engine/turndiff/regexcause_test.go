package turndiff

import (
	"strings"
	"testing"
)

// TestCauseUnderRegexRules: where compiled-stage regex rules rewrote the
// system prompt, the prompt before the rules decides — an item that
// changed there is named (regex listed), as without the rules — and when
// it is the same, the first rule that rewrote it differently is named.
func TestCauseUnderRegexRules(t *testing.T) {
	shout := `{"id":"shout","name":"Shout","stage":"compiled","pattern":"terse","replace":"TERSE"}`
	whisper := `{"id":"whisper","stage":"compiled","pattern":"terse","replace":"quiet"}`
	guess := `{"id":"guess","stage":"compiled","pattern":"guess","replace":"GUESS"}`
	guessMore := `{"id":"guess","stage":"compiled","pattern":"guess","replace":"speculate"}`
	idle := `{"id":"idle","stage":"compiled","pattern":"not in the prompt","replace":"x"}`
	with := func(items string, rules ...string) string {
		s := strings.Replace(draftBase, "Never guess.", items, 1)
		if len(rules) == 0 {
			return s
		}
		return strings.TrimSuffix(s, "]}") + `],"regex":{"rules":[` + strings.Join(rules, ",") + `]}}`
	}
	cases := []struct {
		name, saved, draft             string
		kind, item, rule, detail, also string
	}{
		{"an item changed under a rule", with("Never guess.", shout), with("Never guess. Cite files.", shout),
			CausePresetItem, "rules", "", "preset item rules", CauseRegex},
		{"an item changed, no rule", with("Never guess."), with("Never guess. Cite files."),
			CausePresetItem, "rules", "", "preset item rules", ""},
		{"another rule", with("Never guess.", shout), with("Never guess.", idle, whisper),
			CauseRegex, "", "whisper", "regex rule whisper rewrote the system prompt differently", ""},
		{"a rule gone", with("Never guess.", shout), with("Never guess.", idle),
			CauseRegex, "", "shout", "regex rule Shout no longer rewrites the system prompt", ""},
		{"a rule added", with("Never guess."), with("Never guess.", shout),
			CauseRegex, "", "shout", "regex rule Shout rewrote the system prompt differently", ""},
		{"the second rule changed", with("Never guess.", shout, guess), with("Never guess.", shout, guessMore),
			CauseRegex, "", "guess", "regex rule guess rewrote the system prompt differently", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := PreviewTurn(previewOf(t, parseStack(t, c.saved)), "demo", "saved")
			after := PreviewTurn(previewOf(t, parseStack(t, c.draft)), "demo", "draft")
			d := DiffTurns(&before.Turn, &after.Turn)
			row, offset, ok := FirstChange(&d)
			if !ok {
				t.Fatal("no change")
			}
			got := CauseFromOrigins(&d, row, offset, &before, &after)
			if got == nil || got.Kind != c.kind || got.ItemID != c.item || got.RuleID != c.rule || got.Detail != c.detail ||
				strings.Join(got.Also, ",") != c.also || got.Block != KeySystem {
				t.Fatalf("cause %+v, want %s item %q rule %q detail %q also %q", got, c.kind, c.item, c.rule, c.detail, c.also)
			}
		})
	}
}
