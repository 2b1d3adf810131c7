package forms

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestFormsGoldenInChinese pins the forms whose rows align columns (the
// policy's mode and initial rows, the bindings' SOURCE/EFFECTIVE table,
// the slot options' name column) in zh-CN at 80x24 and 160x48, as
// *_zh goldens.
func TestFormsGoldenInChinese(t *testing.T) {
	uitest.InLanguage(t, i18n.SimplifiedChinese)
	forms := map[string]func(*testing.T) Form{
		"policy_tools":  func(t *testing.T) Form { return NewPolicy(policyContext(t, policyDraft), "tools") },
		"bindings_row0": func(t *testing.T) Form { return NewBindings(bindingsContext(t, bindingsDraft)) },
		"bindings_picker": func(t *testing.T) Form {
			return drive(t, NewBindings(bindingsContext(t, bindingsDraft))).press("a").Model
		},
		"slot_item1": func(t *testing.T) Form { return NewSlotOptions(testContext(t, slotDraft), 1) },
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for form, build := range forms {
			name := fmt.Sprintf("%s_%dx%d_zh", form, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				v := sizedView(build(t), size.w, size.h)
				uitest.AssertFits(t, v, size.w, size.h)
				if strings.ContainsRune(ansi.Strip(v), '\uFFFD') {
					t.Errorf("a character was cut in half:\n%s", ansi.Strip(v))
				}
				uitest.Golden(t, name, v)
			})
		}
	}
}

// TestPolicyLabelsAlignByCells holds the policy's mode and initial rows to
// one value column measured in cells: the translated label "模式" is two
// characters but four cells, so padding by runes (fmt's %-10s) would push
// its value two cells right of the initial row's.
func TestPolicyLabelsAlignByCells(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.English, i18n.SimplifiedChinese} {
		t.Run(string(l), func(t *testing.T) {
			uitest.InLanguage(t, l)
			v := ansi.Strip(sizedView(NewPolicy(policyContext(t, policyDraft), "tools"), 160, 48))
			valueColumn := func(label, value string) int {
				t.Helper()
				for _, line := range strings.Split(v, "\n") {
					i := strings.Index(line, label)
					if i < 0 {
						continue
					}
					j := strings.Index(line[i:], value)
					if j < 0 {
						continue
					}
					return ansi.StringWidth(line[:i+j]) - ansi.StringWidth(line[:i])
				}
				t.Fatalf("no line with %q then %q:\n%s", label, value, v)
				return 0
			}
			mode := valueColumn(i18n.T("mode"), "allow")
			initial := valueColumn("initial", i18n.T("set: %d default tool(s) ([] = none)", 2))
			if mode != policyLabelWidth || initial != policyLabelWidth {
				t.Errorf("values start %d cells (mode) and %d cells (initial) after their labels, want %d", mode, initial, policyLabelWidth)
			}
		})
	}
}
