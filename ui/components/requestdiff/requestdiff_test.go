package requestdiff

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/components/diffview"
	"github.com/forgebench/forgebench/ui/uitest"
)

func sample() diffview.Diff {
	blocks := []diffview.Block{
		{Key: "system", Label: "system prompt", Role: "system", Status: diffview.StatusSame, Before: "You are terse.", After: "You are terse."},
		{Key: "m1", Label: "user message", Role: "user", Status: diffview.StatusModified, Before: "a\nb\nc\n", After: "a\nB\nc\n", TokenDelta: 0},
		{Key: "m2", Label: "assistant message", Role: "assistant", Status: diffview.StatusAdded, After: "new\n", TokenDelta: 1},
	}
	return diffview.Diff{Blocks: blocks, Boundary: 1, Totals: diffview.Summarize(blocks)}
}

// run feeds a command's message back like the runtime does.
func run(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for cmd != nil {
		msg := cmd()
		var handled bool
		handled, cmd = m.Update(msg, keymap.DefaultPayloads())
		if !handled {
			t.Fatalf("own message %T not handled", msg)
		}
	}
}

func TestOpensOnTheFirstChangeAndDiffsLines(t *testing.T) {
	m := New()
	m.SetSize(100, 20)
	run(t, m, m.SetDiff(sample()))
	b, row, ok := m.Selected()
	if !ok || row != 1 || b.Key != "m1" {
		t.Fatalf("cursor on %d %q", row, b.Key)
	}
	if d := m.LineView().Diff(); d.Added() != 1 || d.Removed() != 1 {
		t.Fatalf("line diff +%d -%d", d.Added(), d.Removed())
	}
	k := keymap.DefaultPayloads()
	for _, name := range []string{"j", "enter", "|", "c", "w"} {
		handled, cmd := m.Update(uitest.Key(name), k)
		if !handled {
			t.Fatalf("%s not handled", name)
		}
		run(t, m, cmd)
	}
	if m.Focus() != Lines || m.LineView().Layout() != diffview.Split || m.LineView().Wrap() {
		t.Fatalf("focus %v layout %v wrap %v", m.Focus(), m.LineView().Layout(), m.LineView().Wrap())
	}
	if handled, _ := m.Update(uitest.Key("x"), k); handled {
		t.Error("keys the view does not own fall through")
	}
	m.Update(uitest.Key("esc"), k)
	if m.Focus() != Blocks {
		t.Error("esc goes back to the blocks")
	}
}

func TestResultsOfAnotherViewAreIgnored(t *testing.T) {
	a, b := New(), New()
	a.SetSize(80, 20)
	b.SetSize(80, 20)
	cmd := a.SetDiff(sample())
	msg := cmd()
	if handled, _ := b.Update(msg, keymap.DefaultPayloads()); handled {
		t.Fatal("a line diff of view a reached view b")
	}
	// A result of an older diff of the same view is dropped.
	a.SetDiff(sample())
	a.Update(msg, keymap.DefaultPayloads())
	if a.LineView().Diff().Added() != 0 {
		t.Error("stale line diff shown")
	}
}

func TestViewFills(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	for _, size := range [][2]int{{40, 12}, {80, 20}, {160, 40}} {
		m := New()
		m.SetSize(size[0], size[1])
		run(t, m, m.SetDiff(sample()))
		v := m.View(&st)
		uitest.AssertFills(t, v, size[0], size[1])
		if !strings.Contains(v, "user message") {
			t.Errorf("%v: no block rows", size)
		}
	}
}

func TestFromTurnDiff(t *testing.T) {
	before := turndiff.Turn{Blocks: []turndiff.Block{turndiff.NewBlock("system", "system", "a"), turndiff.NewBlock("stack-item:rules:1", "user", "x")}}
	after := turndiff.Turn{Blocks: []turndiff.Block{turndiff.NewBlock("system", "system", "a"), turndiff.NewBlock("stack-item:rules:1", "user", "y"),
		turndiff.NewBlock("request-tools", "request", "{}")}}
	d := turndiff.DiffTurns(&before, &after)
	v := FromTurnDiff(&d)
	if v.Boundary != 1 || v.Blocks[1].Label != "item rules" || v.Blocks[2].Label != "request · tools" || v.Blocks[0].Label != "system prompt" {
		t.Fatalf("%+v", v)
	}
	if v.Totals.Modified != 1 || v.Totals.Added != 1 || v.Totals.PrefixTokens != d.PrefixTokens {
		t.Errorf("totals %+v", v.Totals)
	}
	same := turndiff.DiffTurns(&before, &before)
	if FromTurnDiff(&same).Boundary != 2 {
		t.Error("a fully cached diff closes the list with the rule")
	}
}

// A message that reads the same but moved its cache marker shows its wire
// JSON, so the line diff has the change to show; origins name the rows.
func TestFromTurnDiffWireFieldsAndOrigins(t *testing.T) {
	parse := func(s string) any {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := turndiff.ExtractPayload("a", "", "", parse(`{"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]}`), "")
	after := turndiff.ExtractPayload("b", "", "", parse(`{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"user","content":"update"}]}`), "")
	d := turndiff.DiffTurns(&before, &after)
	v := FromTurnDiff(&d)
	b := v.Blocks[0]
	if b.Status != diffview.StatusModified || !b.Fields || !strings.Contains(b.Before, `"cache_control"`) || strings.Contains(b.After, "cache_control") {
		t.Fatalf("%+v", b)
	}
	ann := turndiff.Annotated{Turn: after, Blocks: map[string]turndiff.Origin{
		after.Blocks[1].Key: {Kind: turndiff.CauseCapability, Label: `capability update "Write access" (user message)`},
	}}
	Annotate(&v, &d, nil, &ann)
	if v.Blocks[1].Label != `user message · capability update "Write access" (user message)` || v.Blocks[0].Label != "user message" {
		t.Errorf("labels %q / %q", v.Blocks[0].Label, v.Blocks[1].Label)
	}
	m := New()
	m.SetSize(120, 20)
	run(t, m, m.SetDiff(v))
	st := themes.For(themes.Dark, true, false)
	if out := m.View(&st); !strings.Contains(out, "same text; its request fields differ") || !strings.Contains(out, "cache_control") {
		t.Errorf("view:\n%s", out)
	}
}
