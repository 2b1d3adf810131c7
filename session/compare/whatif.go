package compare

import (
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
)

// Piece is one stretch of a request in cache-prefix order, compared by
// kind, ref and text between two versions of it.
type Piece struct {
	Kind, Label, Ref string
	Text             string
	Tokens           int
}

// WhatIf is what a change to a request would do: its size before and
// after, and where the cache boundary moves (the first piece that differs:
// everything before it stays cached, the rest is sent again uncached).
type WhatIf struct {
	TokensBefore, TokensAfter int
	// Delta is TokensAfter − TokensBefore.
	Delta int
	// Changed is false when both requests are the same.
	Changed bool
	// PrefixTokens are the tokens before the first change (still cached);
	// Boundary is the first changed piece (of the request before, or the
	// added one when the change only adds).
	PrefixTokens int
	Boundary     Piece
}

// PreviewPieces lays a compiled preview out as its request would be:
// the tool definitions (jsonv declarations, estimated as their JSON),
// then the system prompt parts, then the messages.
func PreviewPieces(tools []any, pv compile.PreviewResult) []Piece {
	var out []Piece
	for _, t := range tools {
		name := ""
		if o, ok := t.(*jsonv.Object); ok {
			nv, _ := o.Get("name")
			name, _ = nv.(string)
		}
		text := jsonv.Stringify(t)
		out = append(out, Piece{Kind: PartTool, Label: name, Ref: name, Text: text, Tokens: compile.EstimateTokens(text)})
	}
	for _, p := range pv.System {
		if p.Kind == compile.PartSeparator && len(out) > 0 && out[len(out)-1].Kind != PartTool {
			last := &out[len(out)-1]
			last.Text += p.Text
			last.Tokens = compile.EstimateTokens(last.Text)
			continue
		}
		kind := PartSystem
		if p.ItemID != "" {
			kind = PartPresetItem
		}
		out = append(out, Piece{Kind: kind, Label: p.Label, Ref: p.ItemID, Text: p.Text, Tokens: compile.EstimateTokens(p.Text)})
	}
	for _, p := range pv.Messages {
		text := p.Text
		if p.Message != nil {
			text = jsonv.Stringify(p.Message)
		}
		out = append(out, Piece{Kind: PartHistory, Label: p.Label, Ref: p.ItemID, Text: text, Tokens: p.Tokens})
	}
	return out
}

// Compare finds what changing before into after does. Pure.
func Compare(before, after []Piece) WhatIf {
	var w WhatIf
	for _, p := range before {
		w.TokensBefore += p.Tokens
	}
	for _, p := range after {
		w.TokensAfter += p.Tokens
	}
	w.Delta = w.TokensAfter - w.TokensBefore
	k := 0
	for k < len(before) && k < len(after) && samePiece(before[k], after[k]) {
		w.PrefixTokens += before[k].Tokens
		k++
	}
	switch {
	case k < len(before):
		w.Changed, w.Boundary = true, before[k]
	case k < len(after):
		w.Changed, w.Boundary = true, after[k]
	}
	return w
}

func samePiece(a, b Piece) bool {
	return a.Kind == b.Kind && a.Ref == b.Ref && a.Text == b.Text
}
