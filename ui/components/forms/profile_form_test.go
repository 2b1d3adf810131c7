package forms

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func profileTestContext(t *testing.T, stack string) ProfileContext {
	t.Helper()
	v, err := jsonv.Parse([]byte(`{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"w","model":{"provider":"anthropic","id":"m"},` +
		`"thinkingLevel":"medium","promptStack":` + jsonv.Quote(stack) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return ProfileContext{Com: testCommon(), Tree: v.(*jsonv.Object), Presets: []string{"project:worker", "global:review"}}
}

// The promptStack field says, as the user types and after, when the
// selector names no Preset the profile could use (pi-forge would refuse to
// apply it); a selector that resolves reads fine.
func TestProfileFormChecksThePresetSelector(t *testing.T) {
	f := NewProfile(profileTestContext(t, "nope"), WithCursor(Cursor{Row: 5}))
	if view := ansi.Strip(sizedView(f, 100, 20)); !strings.Contains(view, "names no Preset") {
		t.Fatalf("an unknown Preset is not flagged:\n%s", view)
	}
	for _, ok := range []string{"worker", "review", "global:review", "project:worker"} {
		f := NewProfile(profileTestContext(t, ok), WithCursor(Cursor{Row: 5}))
		if view := ansi.Strip(sizedView(f, 100, 20)); strings.Contains(view, "names no Preset") {
			t.Fatalf("%s resolves but is flagged:\n%s", ok, view)
		}
	}
	d := drive(t, NewProfile(profileTestContext(t, "worker"), WithCursor(Cursor{Row: 5}))).press("enter", "ctrl+u").typeText("global:worker")
	if view := ansi.Strip(sizedView(d.Model, 100, 20)); !strings.Contains(view, "✗ global:worker names no Preset") {
		t.Fatalf("the editor does not check as the user types:\n%s", view)
	}
}

// A profile without a Preset (promptStack null, as n creates it) takes a
// selector typed without quotes, and null back.
func TestProfileFormSetsAPresetOnANullPromptStack(t *testing.T) {
	v, _ := jsonv.Parse([]byte(`{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"w","model":{"provider":"a","id":"m"},"thinkingLevel":"medium","promptStack":null}`))
	ctx := ProfileContext{Com: testCommon(), Tree: v.(*jsonv.Object), Presets: []string{"project:worker"}}
	d := drive(t, NewProfile(ctx, WithCursor(Cursor{Row: 5}))).press("enter", "ctrl+u").typeText("worker")
	if view := ansi.Strip(sizedView(d.Model, 100, 20)); strings.Contains(view, "names no Preset") {
		t.Fatalf("a Preset that resolves is flagged:\n%s", view)
	}
	d.press("enter")
	assertEdit(t, d.onlyEdit(), Path{"promptStack"}, `"worker"`, "promptStack")
	d = drive(t, NewProfile(ctx, WithCursor(Cursor{Row: 5}))).press("enter")
	if view := ansi.Strip(sizedView(d.Model, 100, 20)); strings.Contains(view, "names no Preset") {
		t.Fatalf("null is flagged:\n%s", view)
	}
}
