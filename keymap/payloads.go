package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Payloads are the keys of the Payloads panel (panel 4): choosing the two
// requests to compare, moving in the block list and the line diff, the
// line diff's layout and context, the per-request cache view, and jumping
// to what caused a change.
type Payloads struct {
	Nav
	// PickA and PickB open the reference picker for one side.
	PickA key.Binding
	PickB key.Binding
	// Swap exchanges the two sides.
	Swap key.Binding
	// Open shows the selected block's line diff (or applies a picked row).
	Open key.Binding
	Back key.Binding
	// NextChange and PrevChange move to the next changed block or hunk.
	NextChange key.Binding
	PrevChange key.Binding
	// Layout toggles unified/split; Context cycles changes/3 lines/all;
	// Wrap toggles wrapping long lines.
	Layout  key.Binding
	Context key.Binding
	Wrap    key.Binding
	// Requests shows the branch's requests with their cache figures.
	Requests key.Binding
	// Jump moves the shared selection to what produced the selected block
	// (the preset item, the capability or the session entry) and shows
	// that panel.
	Jump   key.Binding
	Reload key.Binding
}

// DefaultPayloads returns the stock Payloads panel bindings: [ and ] pick
// the left (A) and right (B) side, | splits, > goes to the cause, s shows
// the stats (docs/KEYS.md: a, x, v and o mean add, delete, view whole and
// pager everywhere).
func DefaultPayloads() Payloads {
	return Payloads{
		Nav:        DefaultNav(),
		PickA:      bind([]string{"["}, "[", i18n.Mark("pick A")),
		PickB:      bind([]string{"]"}, "]", i18n.Mark("pick B")),
		Swap:       bind([]string{"~"}, "~", i18n.Mark("swap A/B")),
		Open:       bind([]string{"enter"}, "enter", i18n.Mark("line diff/choose")),
		Back:       bind([]string{"esc"}, "esc", i18n.Mark("back")),
		NextChange: bind([]string{"n"}, "n", i18n.Mark("next change")),
		PrevChange: bind([]string{"N"}, "N", i18n.Mark("previous change")),
		Layout:     bind([]string{"|"}, "|", i18n.Mark("unified/split")),
		Context:    bind([]string{"c"}, "c", i18n.Mark("context")),
		Wrap:       bind([]string{"w"}, "w", i18n.Mark("wrap")),
		Requests:   bind([]string{"s"}, "s", i18n.Mark("stats: cache per request")),
		Jump:       bind([]string{">"}, ">", i18n.Mark("go to cause")),
		Reload:     bind([]string{"r"}, "r", i18n.Mark("reload")),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (p *Payloads) Named() map[string]*key.Binding {
	return p.Nav.addNamed("payloads.", map[string]*key.Binding{
		"payloads.pick-a": &p.PickA, "payloads.pick-b": &p.PickB, "payloads.swap": &p.Swap,
		"payloads.open": &p.Open, "payloads.back": &p.Back, "payloads.next-change": &p.NextChange,
		"payloads.prev-change": &p.PrevChange, "payloads.layout": &p.Layout, "payloads.context": &p.Context,
		"payloads.wrap": &p.Wrap, "payloads.requests": &p.Requests, "payloads.jump": &p.Jump,
		"payloads.reload": &p.Reload,
	})
}
