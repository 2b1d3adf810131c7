package session

import (
	"bytes"
	"hash/maphash"
	"os"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session/internal/scan"
)

// PayloadStream is a saved payload whose top level is a JSON object, read
// for showing without building its turn: its members are located in the
// file's bytes, in the order JSON.parse gives them, and each is decoded
// and made into blocks when they are shown (MemberBlocks). A capture of
// two million request fields is then the file and 16 bytes a field, where
// its parsed value and turn held more than a gigabyte. The blocks are the
// turn's (ReadPayloadFile) but for request fields' hashes and wire values,
// which showing does not use; TestPayloadStreamMatchesTurn and
// FuzzPayloadStream hold the two to the same blocks and losses.
type PayloadStream struct {
	Path    string
	ModTime time.Time
	// Blocks and Chars count the blocks and their UTF-16 length; Losses
	// are the redaction markers, in document order.
	Blocks int
	Chars  int
	Losses []turndiff.Loss

	data    []byte
	members []streamMember
}

// streamMember is one member as JSON.parse keeps it: the key where it
// first appears, the value of its last appearance. The top bit of keyEnd
// says the key holds an escape.
type streamMember struct{ key, keyEnd, value, valueEnd uint32 }

const escapedKey = 1 << 31

// rawKey is the key's bytes as written, and whether they hold an escape.
func (p *PayloadStream) rawKey(m streamMember) ([]byte, bool) {
	return p.data[m.key : m.keyEnd&^escapedKey], m.keyEnd&escapedKey != 0
}

// maxStreamDepth bounds the nesting a member may hold for the stream to
// decode it alone: jsonv.Parse refuses nesting past 10,000 levels counted
// from the document, so a member near the limit is left to it.
const maxStreamDepth = 9000

// StreamPayloadFile reads path as a PayloadStream when it is a valid
// UTF-8 JSON object with members that is not a turn snapshot; for any
// other file — and for one it cannot read — it returns nil, and
// ReadPayloadFile reads it (and reports the error).
func StreamPayloadFile(path string) *PayloadStream {
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		return nil
	}
	f, info, err := openRegular(path)
	if err != nil {
		return nil
	}
	data, err := readPayloadBytes(f, info)
	f.Close()
	if err != nil || len(data) > MaxPayloadFileBytes || len(data) >= 1<<32 || !utf8.Valid(data) {
		return nil
	}
	p := &PayloadStream{Path: path, ModTime: info.ModTime(), data: data}
	if !p.locate() {
		return nil
	}
	// The blocks are counted (and the losses found) before any is shown,
	// on every core: the first line names the totals.
	type part struct {
		blocks, chars int
		losses        []turndiff.Loss
		failed        bool
	}
	const chunk = 1 << 14
	parts := make([]part, (len(p.members)+chunk-1)/chunk)
	inParallel(len(parts), func(j int) {
		pt := &parts[j]
		seen := map[string]int{} // message keys: only the messages member makes them
		var blocks []turndiff.Block
		for i := j * chunk; i < min(len(p.members), (j+1)*chunk); i++ {
			key, v, ok := p.member(i)
			if !ok {
				pt.failed = true
				return
			}
			blocks = turndiff.MemberBlocks(blocks[:0], key, v, seen, true)
			for k := range blocks {
				pt.blocks++
				pt.chars += blocks[k].Chars
			}
			pt.losses = turndiff.MemberLosses(pt.losses, key, v)
		}
	})
	for _, pt := range parts {
		if pt.failed {
			return nil
		}
		p.Blocks += pt.blocks
		p.Chars += pt.chars
		p.Losses = append(p.Losses, pt.losses...)
	}
	return p
}

// ApproxTokens is the turn's approximate token count.
func (p *PayloadStream) ApproxTokens() int { return (p.Chars + 3) / 4 }

// Each calls fn with every block in order.
func (p *PayloadStream) Each(fn func(b *turndiff.Block)) {
	seen := map[string]int{}
	var blocks []turndiff.Block
	for i := range p.members {
		key, v, _ := p.member(i)       // decoded once already
		if turndiff.IsSecretKey(key) { // pi-forge's secret-key rule (§12.3)
			v = turndiff.MarkerRedacted
		} else {
			v = turndiff.RedactFaithful(v)
		}
		blocks = turndiff.MemberBlocks(blocks[:0], key, v, seen, true)
		for k := range blocks {
			fn(&blocks[k])
		}
	}
}

// member decodes member i.
func (p *PayloadStream) member(i int) (string, any, bool) {
	m := p.members[i]
	key, ok := p.key(m)
	if !ok {
		return "", nil, false
	}
	v, err := jsonv.Parse(p.data[m.value:m.valueEnd])
	return key, v, err == nil
}

// key decodes a member's key (a plain one is a view of the file's bytes,
// which the stream keeps).
func (p *PayloadStream) key(m streamMember) (string, bool) {
	raw, escaped := p.rawKey(m)
	if !escaped {
		return unsafe.String(unsafe.SliceData(raw), len(raw)), true
	}
	v, err := jsonv.Parse(p.data[m.key-1 : m.key+uint32(len(raw))+1])
	s, isStr := v.(string)
	return s, err == nil && isStr
}

// locate validates the document and lists its members in JSON.parse's
// order: integer-like keys first, ascending, then the others in the order
// they first appear; a repeated key keeps its first place and takes its
// last value. It reports false for anything else than a valid object with
// members that is not a turn snapshot, or with a member nested near
// jsonv's limit.
func (p *PayloadStream) locate() bool {
	d := p.data
	i := scan.SkipWS(d, 0)
	if i >= len(d) || d[i] != '{' {
		return false
	}
	i = scan.SkipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return false // no members: the turn is one payload block
	}
	n, ok := countMembers(d, i)
	if !ok {
		return false
	}
	// Sized once: a table at most half full, and the members.
	size := 64
	for size < 2*n {
		size *= 2
	}
	table := make([]uint64, size) // open addressing: hash<<32 | member index + 1
	p.members = make([]streamMember, 0, n)
	seed := maphash.MakeSeed()
	for {
		if i >= len(d) || d[i] != '"' {
			return false
		}
		// countMembers validated the object: its values are only walked.
		keyEnd := scan.EndOfString(d, i)
		m := streamMember{key: uint32(i + 1), keyEnd: uint32(keyEnd - 1)}
		if bytes.IndexByte(d[i+1:keyEnd-1], '\\') >= 0 {
			m.keyEnd |= escapedKey
		}
		i = scan.SkipWS(d, scan.SkipWS(d, keyEnd)+1) // past the colon
		end := scan.EndOfValue(d, i)
		if end-i > maxStreamDepth && bytes.Count(d[i:end], []byte{'{'})+bytes.Count(d[i:end], []byte{'['}) > maxStreamDepth {
			return false
		}
		m.value, m.valueEnd = uint32(i), uint32(end)
		key, ok := p.key(m)
		if !ok || key == "turnId" || key == "blocks" {
			return false // a turn snapshot, or what might be one: ReadPayloadFile decides
		}
		h := maphash.String(seed, key)
		if k, found := p.find(table, h, key); found {
			p.members[k].value, p.members[k].valueEnd = m.value, m.valueEnd
		} else {
			table[k] = h&^0xffffffff | uint64(len(p.members)+1)
			p.members = append(p.members, m)
		}
		i = scan.SkipWS(d, end)
		if d[i] == '}' {
			break
		}
		i = scan.SkipWS(d, i+1) // past the comma
	}
	if scan.SkipWS(d, i+1) != len(d) {
		return false
	}
	p.order()
	return true
}

// find looks key (hashed to h) up in the table: the member's index when
// found, else the empty slot to put it in. An entry's upper half is its
// key's hash, compared before the key is (members and keys lie all over
// the file: most probes then touch the table alone).
func (p *PayloadStream) find(table []uint64, h uint64, key string) (int, bool) {
	mask := len(table) - 1
	for slot := int(h>>1) & mask; ; slot = (slot + 1) & mask {
		e := table[slot]
		if e == 0 {
			return slot, false
		}
		if e&^0xffffffff != h&^0xffffffff {
			continue
		}
		m := p.members[uint32(e)-1]
		if raw, escaped := p.rawKey(m); !escaped && string(raw) == key {
			return int(uint32(e) - 1), true
		} else if escaped {
			if k, _ := p.key(m); k == key {
				return int(uint32(e) - 1), true
			}
		}
	}
}

// countMembers counts the members of the object whose first key is at
// d[i] (0 when it is not a valid object).
func countMembers(d []byte, i int) (int, bool) {
	n := 0
	for {
		end, _, ok := scan.SkipString(d, i)
		if !ok {
			return 0, false
		}
		i = scan.SkipWS(d, end)
		if i >= len(d) || d[i] != ':' {
			return 0, false
		}
		if i, ok = scan.SkipValue(d, i+1); !ok {
			return 0, false
		}
		n++
		i = scan.SkipWS(d, i)
		if i < len(d) && d[i] == '}' {
			return n, true
		}
		if i >= len(d) || d[i] != ',' {
			return 0, false
		}
		i = scan.SkipWS(d, i+1)
	}
}

// order puts the integer-like keys first, in ascending order, as
// JavaScript enumerates an object's properties; the others keep their
// order.
func (p *PayloadStream) order() {
	var ints []streamMember
	var values []uint64
	rest := 0
	for _, m := range p.members {
		key, _ := p.key(m)
		if n, ok := arrayIndex(key); ok {
			ints = append(ints, m)
			values = append(values, n)
			continue
		}
		p.members[rest] = m
		rest++
	}
	if len(ints) == 0 {
		return
	}
	idx := make([]int, len(ints))
	for k := range idx {
		idx[k] = k
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case values[a] < values[b]:
			return -1
		case values[a] > values[b]:
			return 1
		}
		return 0
	})
	copy(p.members[len(ints):], p.members[:rest])
	for k, j := range idx {
		p.members[k] = ints[j]
	}
}

// arrayIndex reports whether key is a canonical array index ("0" or a
// decimal without a leading zero below 2^32-1), as jsonv orders keys.
func arrayIndex(key string) (uint64, bool) {
	if len(key) == 0 || len(key) > 10 {
		return 0, false
	}
	if key[0] == '0' {
		return 0, len(key) == 1
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}
