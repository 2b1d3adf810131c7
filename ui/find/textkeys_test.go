package find

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
)

// The query line edits with the keymap's text keys: a rebinding of
// form.text.word-left moves its cursor, and the default delete-word key
// deletes a word.
func TestQueryEditsWithTheTextKeys(t *testing.T) {
	h := newHarness(t)
	if err := keymap.Apply(h.com.Keys, map[string][]string{"form.text.word-left": {"ctrl+g"}}); err != nil {
		t.Fatal(err)
	}
	h.Type("total invoice")
	h.Press("ctrl+g")
	h.Type("x")
	if h.m.query != "total xinvoice" {
		t.Fatalf("after ctrl+g (word left) and x: %q", h.m.query)
	}
	h.Press("alt+d") // delete the word after the cursor
	if h.m.query != "total x" {
		t.Fatalf("after alt+d: %q", h.m.query)
	}
}
