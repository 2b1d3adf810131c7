package replay

import (
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// PresetInput is what PresetRequestAt compiles.
type PresetInput struct {
	Stack *preset.Stack
	// PresetID names the preset in causes (a scoped selector or a path).
	PresetID string
	// Macros are values of custom macros ({{ extensions.x }}); nil = none.
	Macros  map[string]string
	Catalog *catalog.Catalog
	// Location is the local time zone for date slots (nil: time.Local).
	Location *time.Location
	// Fallback gives the runtime and base prompt when the session records
	// no system prompt (Pi before 0.86); nil makes that an error.
	Fallback Defaults
}

// PresetRequestAt rebuilds the request of the entry with the given index
// as in.Stack would have sent it (RequestWith with opts.Preset), without
// pi-forge's capability updates: the compiled prompt projected into Pi's
// System message, the compiled messages on the first request of a user
// turn (else the natural context), and the session's declared tools
// filtered by the Preset's tool policy. The System block is annotated with
// the item behind every character, message blocks of stack items with
// their item.
func PresetRequestAt(s *session.Session, index int, in PresetInput) (*Request, error) {
	return RequestWith(s, index, RequestOptions{Catalog: in.Catalog, Preset: &in})
}

func labelOf(id string, name *string) string {
	if name != nil && jsonv.TrimJS(*name) != "" {
		return *name
	}
	return id
}

// presetSystemSpans maps the preview's system parts onto the start of the
// system block (the compiled prompt is its content, first).
func presetSystemSpans(parts []compile.Part, presetID string) []turndiff.Span {
	return turndiff.SystemSpans(parts, presetID)
}
