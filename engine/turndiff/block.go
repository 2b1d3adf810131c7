package turndiff

import (
	"github.com/forgebench/forgebench/engine/jsonv"
)

// Block is one part of a request: the system prompt, a message, or another
// request field (pi-forge's Block).
type Block struct {
	// Key identifies the block across turns ("system", "message-user-1a2b3c4d",
	// "request-tools", …); keys drive the keyed alignment of DiffTurns.
	Key string
	// Role is the message role, "system", "request" or "payload".
	Role string
	// Text is the block's visible text.
	Text string
	// Chars is the JavaScript length of Text (UTF-16 code units).
	Chars int
	// ApproxTokens is max(1, ceil(Chars/4)).
	ApproxTokens int
	// Hash is the FNV-1a hash of JSON.stringify({role, text, serialized?}):
	// it also covers wire fields that the text does not show.
	Hash string
	// Wire is the serialized part of the hash input (a jsonv value: the
	// message, system value or request field with its section), nil for a
	// block made without it. It shows what changed when two blocks hash
	// differently but read the same.
	Wire any
}

// WireText is the block's wire value as 2-space JSON ("" without one).
func WireText(b *Block) string {
	if b == nil || b.Wire == nil {
		return ""
	}
	return jsonv.StringifyIndent(b.Wire, "  ")
}

// Turn is one request as an ordered list of blocks (pi-forge's
// TurnSnapshot).
type Turn struct {
	TurnID     string
	CapturedAt string
	StackID    string
	Blocks     []Block
}

// EstimateTokens is pi-forge's estimateApproxTokens: max(1, ceil(length/4))
// over UTF-16 code units.
func EstimateTokens(text string) int {
	return max(1, (jsonv.UTF16Len(text)+3)/4)
}

// NewBlock is pi-forge's createBlock without wire metadata: the hash
// covers {role, text}.
func NewBlock(key, role, text string) Block {
	h := hashInputHead(role).quotedBody(text).ascii(`"}`)
	return newBlock(key, role, text, h)
}

// NewBlockSerialized is pi-forge's createBlock with wire metadata: the
// hash covers {role, text, serialized}. serialized is a jsonv value.
func NewBlockSerialized(key, role, text string, serialized any) Block {
	h := hashInputTail(hashInputHead(role).quotedBody(text), serialized)
	b := newBlock(key, role, text, h)
	b.Wire = serialized
	return b
}

// hashInputHead hashes the start of JSON.stringify({role, text, …}) up to
// the text's opening quote; the hash input is never built as a string.
func hashInputHead(role string) fnv {
	return newFNV().ascii(`{"role":`).quoted(role).ascii(`,"text":"`)
}

// hashInputTail hashes the rest after the text's body:
// `","serialized":` JSON.stringify(serialized) `}`.
func hashInputTail(h fnv, serialized any) fnv {
	return h.ascii(`","serialized":`).json(serialized).unit('}')
}

// newBlock fills a block whose hash input hashed to h.
func newBlock(key, role, text string, h fnv) Block {
	return newBlockChars(key, role, text, jsonv.UTF16Len(text), h)
}

// newBlockChars is newBlock for a text already measured: chars UTF-16
// units.
func newBlockChars(key, role, text string, chars int, h fnv) Block {
	return Block{
		Key:          key,
		Role:         role,
		Text:         text,
		Chars:        chars,
		ApproxTokens: max(1, (chars+3)/4),
		Hash:         h.hex(),
	}
}

// Chars is the sum of the blocks' lengths.
func (t *Turn) Chars() int {
	n := 0
	for i := range t.Blocks {
		n += t.Blocks[i].Chars
	}
	return n
}

// ApproxTokens is pi-forge's turnApproxTokens: ceil(total chars / 4), 0 for
// an empty turn.
func (t *Turn) ApproxTokens() int {
	return (t.Chars() + 3) / 4
}
