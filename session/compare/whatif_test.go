package compare

import "testing"

func TestCompareFindsTheFirstChange(t *testing.T) {
	tool := func(n string, tok int) Piece {
		return Piece{Kind: PartTool, Ref: n, Label: n, Text: n + "-def", Tokens: tok}
	}
	item := func(id string, tok int) Piece {
		return Piece{Kind: PartPresetItem, Ref: id, Label: id, Text: id + " text", Tokens: tok}
	}
	before := []Piece{tool("read", 100), tool("bash", 80), item("role", 20), item("project", 300), {Kind: PartHistory, Text: "hi", Tokens: 1}}
	// Without the project item: tools and role stay cached.
	after := []Piece{before[0], before[1], before[2], before[4]}
	w := Compare(before, after)
	if !w.Changed || w.Delta != -300 || w.PrefixTokens != 200 || w.Boundary.Ref != "project" || w.TokensBefore != 501 || w.TokensAfter != 201 {
		t.Errorf("without project: %+v", w)
	}
	// Without bash: the boundary is the tool, before every system part.
	w = Compare(before, []Piece{before[0], before[2], before[3], before[4]})
	if w.Boundary.Kind != PartTool || w.Boundary.Ref != "bash" || w.PrefixTokens != 100 || w.Delta != -80 {
		t.Errorf("without bash: %+v", w)
	}
	// A change that only adds at the end keeps the whole request cached.
	w = Compare(before, append(append([]Piece{}, before...), Piece{Kind: PartHistory, Text: "more", Tokens: 1}))
	if !w.Changed || w.PrefixTokens != 501 || w.Delta != 1 || w.Boundary.Text != "more" {
		t.Errorf("appended: %+v", w)
	}
	if w = Compare(before, before); w.Changed || w.Delta != 0 || w.PrefixTokens != 501 {
		t.Errorf("same: %+v", w)
	}
}
