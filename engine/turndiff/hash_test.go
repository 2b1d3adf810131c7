package turndiff

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// hashSlow is hashText one character at a time over text as it is built:
// the reference the fast hashing must equal.
func hashSlow(text string) string {
	h := uint32(fnvOffset)
	add := func(u uint32) { h = (h ^ u) * fnvPrime }
	for i := 0; i < len(text); {
		if text[i] == 0xED && i+2 < len(text) && text[i+1] >= 0xA0 && text[i+1] <= 0xBF && text[i+2] >= 0x80 && text[i+2] <= 0xBF {
			add(0xD000 | uint32(text[i+1]&0x3F)<<6 | uint32(text[i+2]&0x3F))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if r >= 0x10000 {
			r -= 0x10000
			add(0xD800 + uint32(r>>10))
			add(0xDC00 + uint32(r&0x3FF))
		} else {
			add(uint32(r))
		}
		i += n
	}
	return fnv(h).hex()
}

// blockHashSlow is createBlock's hash as the JSON text it covers.
func blockHashSlow(role, text string, serialized any, withSerialized bool) string {
	in := jsonv.NewObject()
	in.Set("role", role)
	in.Set("text", text)
	if withSerialized {
		in.Set("serialized", serialized)
	}
	return hashSlow(jsonv.Stringify(in))
}

// checkHashes compares every fast hashing path with the slow reference.
func checkHashes(t *testing.T, s string) {
	t.Helper()
	if got, want := HashText(s), hashSlow(s); got != want {
		t.Fatalf("HashText(%q) = %s, want %s", s, got, want)
	}
	if got, want := newFNV().quoted(s).hex(), hashSlow(jsonv.Quote(s)); got != want {
		t.Fatalf("quoted(%q) = %s, want %s", s, got, want)
	}
	p := textPass{s: s, key: newFNV().ascii("r"), block: newFNV().ascii("q")}
	p.finish()
	if got, want := p.key.hex(), hashSlow("r"+s); got != want {
		t.Fatalf("text pass of %q: key chain %s, want %s", s, got, want)
	}
	if got, want := p.block.unit('"').hex(), hashSlow("q"+jsonv.Quote(s)[1:]); got != want {
		t.Fatalf("text pass of %q: block chain %s, want %s", s, got, want)
	}
	if got, want := p.units, jsonv.UTF16Len(s); got != want {
		t.Fatalf("text pass of %q: %d units, want %d", s, got, want)
	}
	if got, want := NewBlock("k", s, s).Hash, blockHashSlow(s, s, nil, false); got != want {
		t.Fatalf("NewBlock(%q) hash %s, want %s", s, got, want)
	}
	msg := jsonv.NewObject()
	msg.Set("role", "user")
	part := jsonv.NewObject()
	part.Set("type", "text")
	part.Set("text", s)
	msg.Set("content", []any{part, s, 1.5, math.NaN(), nil, true, []any{}, jsonv.NewObject(), int64(3)})
	for _, v := range []any{s, msg, []any{s, msg}} {
		if got, want := newFNV().json(v).hex(), hashSlow(jsonv.Stringify(v)); got != want {
			t.Fatalf("json(%s) = %s, want %s", jsonv.Stringify(v), got, want)
		}
	}
	seen := map[string]int{}
	b := MessageBlock(msg, seen)
	text := MessageText(msg)
	wire := jsonv.NewObject()
	wire.Set("section", "messages")
	wire.Set("value", msg)
	if want := blockHashSlow("user", text, wire, true); b.Hash != want {
		t.Fatalf("MessageBlock(%q) hash %s, want %s", s, b.Hash, want)
	}
	if want := KeyMessage + "user-" + hashSlow("user\x00"+text); b.Key != want {
		t.Fatalf("MessageBlock(%q) key %s, want %s", s, b.Key, want)
	}
}

// hashSpecials are characters the fast paths must leave to the slow step.
var hashSpecials = []string{
	"\"", "\\", "\n", "\t", "\b", "\f", "\r", "\x00", "\x1f", "\x7f", "é", "😀", "\uFFFD", "\u2028", "\uffff",
	"\xed\xa0\x80", "\xed\xbf\xbf", "\xed\x9f\xbf", "\xff", "\x80", "\xc0\xaf", "\xc2", "\xe2\x82", "\xf0\x9f\x98",
	"\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80",
}

func TestFastHashesEqualSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	for n := 0; n < 2000; n++ {
		var b strings.Builder
		for k := rng.IntN(10); k >= 0; k-- {
			b.WriteString("abcdefghijklmnopqrstu"[:rng.IntN(21)])
			b.WriteString(hashSpecials[rng.IntN(len(hashSpecials))])
		}
		checkHashes(t, b.String())
	}
	checkHashes(t, "")
	checkHashes(t, strings.Repeat("plain ascii ", 50))
}

func FuzzFastHashes(f *testing.F) {
	for _, s := range hashSpecials {
		f.Add("0123456789" + s + "abcdefghij")
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkHashes(t, s)
	})
}

// benchText mixes ASCII runs with the characters the fast paths stop at,
// like the texts of BenchmarkExtractAndDiff200.
var benchText = strings.Repeat("line of message 12 with naïve 😀 text\n", 4000)

var hashSink fnv

func BenchmarkHashQuoted(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		hashSink = newFNV().quotedBody(benchText)
	}
}

func BenchmarkHashTextPass(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		p := textPass{s: benchText, key: newFNV(), block: newFNV()}
		p.finish()
		hashSink = p.key ^ p.block
	}
}

func BenchmarkHashASCII(b *testing.B) {
	s := strings.Repeat("plain ascii text, no escapes. ", 5000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		hashSink = newFNV().quotedBody(s)
	}
}
