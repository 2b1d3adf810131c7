package payloads

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestCauseLineIsAPart: the cause line answers its own key (the jump,
// asked of the panel) and draws its line with an error first, then the
// comparison on its way, a note, a break picked in the cache view, in
// that order.
func TestCauseLineIsAPart(t *testing.T) {
	keys := keymap.DefaultPayloads()
	c := causeLine{keys: &keys}
	if _, in := c.Update(uitest.Key(keys.Jump.Keys()[0])); in != (jumpIntent{}) {
		t.Fatalf("the jump key asks %T", in)
	}
	if _, in := c.Update(uitest.Key("j")); in != nil {
		t.Fatalf("j asks %T of the panel", in)
	}
	if c.CapturesInput() || len(c.ShortHelp()) != 1 || !key.Matches(uitest.Key(keys.Jump.Keys()[0]), c.ShortHelp()[0]) {
		t.Fatal("the cause line's help is not its jump key")
	}
	st := themes.For(themes.Dark, true, false)
	line := func(pending bool, errStatus string) string { return ansi.Strip(c.View(&st, nil, pending, errStatus)) }
	c.note, c.picked = "pick B", &breakRow{costUSD: 0.01, priced: true, tokens: "1,200", kind: "model", line: "model a → b"}
	for _, tc := range []struct {
		pending   bool
		err, want string
	}{
		{true, "refused", "refused"},
		{true, "", "comparing…"},
		{false, "", "pick B"},
	} {
		if got := line(tc.pending, tc.err); got != tc.want {
			t.Errorf("pending %v err %q: %q, want %q", tc.pending, tc.err, got, tc.want)
		}
	}
	c.note = ""
	if got := line(false, ""); got != "cache break: $0.0100 · 1,200 tokens lost · model · model a → b" {
		t.Errorf("a break picked in the cache view: %q", got)
	}
}

// TestOnePartHasTheKeys: the footer, CapturesInput and the keys all ask
// the part focused names — the pair, the picker (which takes y, v and o
// too, while typing a reference as text), the branch's requests and their
// filter line.
func TestOnePartHasTheKeys(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "c0430f5a")
	footer := func() string {
		var out []string
		for _, b := range hs.m.ShortHelp() {
			out = append(out, b.Help().Key)
		}
		return strings.Join(out, " ")
	}
	if _, ok := hs.m.focused().(*pairView); !ok || !strings.Contains(footer(), hs.m.keys.Jump.Help().Key) {
		t.Fatalf("the pair: %T, footer %q", hs.m.focused(), footer())
	}
	hs.Press("]", "G", "enter")
	if _, ok := hs.m.focused().(*picker); !ok || !hs.m.CapturesInput() {
		t.Fatalf("the picker's typed reference: %T, captures %v", hs.m.focused(), hs.m.CapturesInput())
	}
	n := len(hs.Shown)
	hs.Type("yvo")
	if got := hs.m.picker.input.Value(); !strings.HasSuffix(got, "yvo") || len(hs.Shown) != n {
		t.Fatalf("y, v and o on the typed line: %q, %d shown", got, len(hs.Shown)-n)
	}
	hs.Press("esc", "esc", "s", "s")
	if _, ok := hs.m.focused().(requestsPart); !ok || hs.m.CapturesInput() {
		t.Fatalf("the requests: %T, captures %v", hs.m.focused(), hs.m.CapturesInput())
	}
	hs.Press("/")
	hs.Type("v")
	if !hs.m.CapturesInput() || hs.m.reqs.list.Query() != "v" || len(hs.Shown) != n {
		t.Fatalf("the requests' filter line: captures %v, query %q", hs.m.CapturesInput(), hs.m.reqs.list.Query())
	}
}
