package turndiff

import (
	"errors"
	"fmt"
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// BlockJSON renders a block as pi-forge does:
// {key, role, text, chars, approxTokens, hash}.
func BlockJSON(b *Block) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("key", b.Key)
	o.Set("role", b.Role)
	o.Set("text", b.Text)
	o.Set("chars", float64(b.Chars))
	o.Set("approxTokens", float64(b.ApproxTokens))
	o.Set("hash", b.Hash)
	return o
}

// TurnJSON renders a turn snapshot: {turnId, capturedAt, stackId, blocks}.
func TurnJSON(t *Turn) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("turnId", t.TurnID)
	o.Set("capturedAt", t.CapturedAt)
	o.Set("stackId", t.StackID)
	blocks := make([]any, len(t.Blocks))
	for i := range t.Blocks {
		blocks[i] = BlockJSON(&t.Blocks[i])
	}
	o.Set("blocks", blocks)
	return o
}

// DiffJSON renders a diff exactly as pi-forge's diffTurns result:
// {blocks:[{status, before?, after?, tokenDelta}], prefixTokens,
// prefixRatio, deltaTokens, summary}.
func DiffJSON(d *Diff) *jsonv.Object {
	blocks := make([]any, len(d.Blocks))
	for i := range d.Blocks {
		b := &d.Blocks[i]
		o := jsonv.NewObject()
		o.Set("status", b.Status)
		if b.Before != nil {
			o.Set("before", BlockJSON(b.Before))
		}
		if b.After != nil {
			o.Set("after", BlockJSON(b.After))
		}
		o.Set("tokenDelta", float64(b.TokenDelta))
		blocks[i] = o
	}
	s := jsonv.NewObject()
	s.Set("sameBlocks", float64(d.Summary.SameBlocks))
	s.Set("addedBlocks", float64(d.Summary.AddedBlocks))
	s.Set("removedBlocks", float64(d.Summary.RemovedBlocks))
	s.Set("modifiedBlocks", float64(d.Summary.ModifiedBlocks))
	s.Set("changedBlocks", float64(d.Summary.ChangedBlocks))
	s.Set("addedTokens", float64(d.Summary.AddedTokens))
	s.Set("removedTokens", float64(d.Summary.RemovedTokens))
	s.Set("netTokens", float64(d.Summary.NetTokens))
	o := jsonv.NewObject()
	o.Set("blocks", blocks)
	o.Set("prefixTokens", float64(d.PrefixTokens))
	o.Set("prefixRatio", d.PrefixRatio)
	o.Set("deltaTokens", float64(d.DeltaTokens))
	o.Set("summary", s)
	return o
}

// ErrNotTurn is wrapped by ParseTurn when a value is not a turn snapshot.
var ErrNotTurn = errors.New("not a turn snapshot")

// LooksLikeTurn reports whether v has the shape of a turn snapshot file:
// an object with a string "turnId" and a "blocks" array.
func LooksLikeTurn(v any) bool {
	o, ok := v.(*jsonv.Object)
	if !ok {
		return false
	}
	id, _ := o.Get("turnId")
	blocks, _ := o.Get("blocks")
	_, idOK := id.(string)
	_, blocksOK := blocks.([]any)
	return idOK && blocksOK
}

// ParseTurn reads a turn snapshot ({"turnId", "capturedAt"?, "stackId"?,
// "blocks":[{"key","role","text","chars"?,"approxTokens"?,"hash"?}]}).
// Each block needs a string key, role and text; absent chars, approxTokens
// and hash are computed as pi-forge's createBlock would (hash over
// {role, text}); present ones are kept as recorded.
func ParseTurn(v any) (Turn, error) {
	if !LooksLikeTurn(v) {
		return Turn{}, fmt.Errorf("%w: want an object with a string \"turnId\" and a \"blocks\" array", ErrNotTurn)
	}
	o := v.(*jsonv.Object)
	t := Turn{}
	t.TurnID = stringField(o, "turnId")
	t.CapturedAt = stringField(o, "capturedAt")
	t.StackID = stringField(o, "stackId")
	raw, _ := o.Get("blocks")
	list := raw.([]any)
	t.Blocks = make([]Block, 0, len(list))
	for i, bv := range list {
		bo, ok := bv.(*jsonv.Object)
		if !ok {
			return Turn{}, fmt.Errorf("%w: blocks[%d] is not an object", ErrNotTurn, i)
		}
		var fields [3]string
		for k, name := range []string{"key", "role", "text"} {
			fv, _ := bo.Get(name)
			s, isStr := fv.(string)
			if !isStr {
				return Turn{}, fmt.Errorf("%w: blocks[%d].%s must be a string", ErrNotTurn, i, name)
			}
			fields[k] = s
		}
		b := NewBlock(fields[0], fields[1], fields[2])
		var err error
		if b.Chars, err = intField(bo, "chars", b.Chars); err != nil {
			return Turn{}, fmt.Errorf("%w: blocks[%d]: %v", ErrNotTurn, i, err)
		}
		if b.ApproxTokens, err = intField(bo, "approxTokens", b.ApproxTokens); err != nil {
			return Turn{}, fmt.Errorf("%w: blocks[%d]: %v", ErrNotTurn, i, err)
		}
		if hv, ok := bo.Get("hash"); ok {
			h, isStr := hv.(string)
			if !isStr {
				return Turn{}, fmt.Errorf("%w: blocks[%d].hash must be a string", ErrNotTurn, i)
			}
			b.Hash = h
		}
		t.Blocks = append(t.Blocks, b)
	}
	return t, nil
}

func stringField(o *jsonv.Object, name string) string {
	v, _ := o.Get(name)
	s, _ := v.(string)
	return s
}

// maxCount bounds recorded counts so sums of many blocks cannot overflow.
const maxCount = 1 << 40

func intField(o *jsonv.Object, name string, def int) (int, error) {
	v, ok := o.Get(name)
	if !ok {
		return def, nil
	}
	f, isNum := v.(float64)
	if !isNum || f < 0 || f > maxCount || f != math.Trunc(f) {
		return 0, fmt.Errorf("%s must be a non-negative integer", name)
	}
	return int(f), nil
}
