package forms

import (
	"testing"
)

// A string with a newline or a tab cannot live in a one-line editor
// (bubbles' textinput turns them into spaces and drops other control
// characters); such a field is edited with JSON escapes instead, so
// changing one word keeps the rest of the value as it was.
func TestOneLineFieldKeepsNewlinesAndTabs(t *testing.T) {
	src := `{"schemaVersion":2,"id":"p","name":"P","description":"Line one.\nLine two\twith a tab.","parameters":{"greeting":"Hi,\nthere"},"items":[]}`
	ctx := testContext(t, src)
	d := drive(t, NewProperties(ctx, WithCursor(Cursor{Row: 1}))).press("enter").typeText("!").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"description"}, `"Line one.\nLine two\twith a tab.!"`, "description")

	d = drive(t, NewParameters(ctx)).press("enter", "left").typeText("!").press("enter") // inside the JSON string
	assertEdit(t, d.onlyEdit(), Path{"parameters", "greeting"}, `"Hi,\nthere!"`, "parameters.greeting")
}
