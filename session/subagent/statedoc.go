package subagent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// state.json is read as a stream: the top-level members are found in a
// window that moves through the file, the small ones are decoded at once
// and the agent records are handed, a batch at a time, to decoders on
// every core, each record decoded on its own. Neither the file nor a tree
// of all its values is ever held whole: a tree of 100,000 agents (154 MB)
// decoded whole took 1.2 GB and half a minute. What is read is exactly what
// JSON.parse would read — a duplicate key keeps its last value, invalid
// JSON anywhere (also in a value a later duplicate replaces) fails the
// whole file — so reading in parts changes nothing but the cost.

// stateDoc is a state.json read in parts.
type stateDoc struct {
	// top holds the decoded top-level members; "agents" only when it is
	// not an object (its type is then reported).
	top *jsonv.Object
	// agents is true when the (last) "agents" member is an object;
	// records are its records that were read, in path order (each key with
	// its last value), and diags what was found about them (records left
	// out included).
	agents  bool
	records []Record
	diags   []Diagnostic
}

// readStateDoc reads state.json from r in a window of window bytes
// (growing for a value larger than that). whole is the value when the file
// holds valid JSON that is not an object; err says why it is not JSON.
func readStateDoc(r io.Reader, window int, file string) (doc *stateDoc, whole any, err error) {
	s := &stateScanner{r: r, buf: make([]byte, 0, max(window, 16))}
	doc = &stateDoc{top: jsonv.NewObject()}
	if c, ok := s.peek(); !ok || c != '{' {
		// Not an object: JSON.parse decides what it is.
		data, err := s.rest()
		if err != nil {
			return nil, nil, err
		}
		v, err := jsonv.Parse(data)
		if err != nil {
			return nil, nil, err
		}
		if o, ok := v.(*jsonv.Object); ok { // cannot happen: it starts with "{"
			return &stateDoc{top: o}, nil, nil
		}
		return nil, v, nil
	}
	dec := newRecordDecoder(file)
	defer dec.stop()
	generation := 0 // counts "agents" objects: a later one replaces the records of earlier ones
	err = s.object(func(key string) error {
		if c, ok := s.peek(); ok && c == '{' && key == "agents" {
			generation++
			doc.agents = true
			doc.top.Delete("agents")
			return s.object(func(path string) error {
				raw, err := s.value()
				if err != nil {
					return err
				}
				dec.add(generation, path, raw)
				return nil
			})
		}
		raw, err := s.value()
		if err != nil {
			return err
		}
		v, err := jsonv.Parse(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if key == "agents" {
			generation++ // records read so far are replaced (still checked)
			doc.agents = false
		}
		doc.top.Set(key, v)
		return nil
	})
	if err == nil {
		if c, ok := s.peek(); ok {
			err = s.fail(fmt.Sprintf("unexpected %q after the object", c))
		} else if s.err != nil {
			err = s.err
		}
	}
	records, diags, derr := dec.finish(generation)
	if err != nil {
		return nil, nil, err
	}
	if derr != nil {
		return nil, nil, derr
	}
	if doc.agents {
		doc.records, doc.diags = records, diags
	}
	return doc, nil, nil
}

// stateScanner walks JSON text read from r through a window.
type stateScanner struct {
	r    io.Reader
	buf  []byte // the window: buf[pos:] is unread
	pos  int
	base int64 // file offset of buf[0]
	eof  bool
	err  error // a read error (not EOF)
}

var errStateSyntax = errors.New("invalid JSON")

func (s *stateScanner) fail(what string) error {
	return fmt.Errorf("%w: %s at offset %d", errStateSyntax, what, s.base+int64(s.pos))
}

// more reads into the window, moving what is unread to its front and
// growing it when it is full; false when nothing more can be read.
func (s *stateScanner) more() bool {
	if s.eof {
		return false
	}
	if s.pos > 0 {
		n := copy(s.buf, s.buf[s.pos:])
		s.base += int64(s.pos)
		s.buf, s.pos = s.buf[:n], 0
	}
	if len(s.buf) == cap(s.buf) {
		s.buf = append(s.buf, make([]byte, cap(s.buf))...)[:len(s.buf)]
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.eof, s.err = true, err
	}
	return n > 0 || !s.eof
}

// peek skips JSON whitespace and returns the next byte (false at the end).
func (s *stateScanner) peek() (byte, bool) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, true
			}
		}
		if !s.more() {
			return 0, false
		}
	}
}

// expect consumes c after whitespace.
func (s *stateScanner) expect(c byte) error {
	if got, ok := s.peek(); !ok || got != c {
		if !ok {
			return s.fail(fmt.Sprintf("expected %q, found the end", c))
		}
		return s.fail(fmt.Sprintf("expected %q", c))
	}
	s.pos++
	return nil
}

// object walks the object starting at the next byte: member is called with
// each decoded key and must consume the member's value.
func (s *stateScanner) object(member func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if c, ok := s.peek(); ok && c == '}' {
		s.pos++
		return nil
	}
	for {
		if c, ok := s.peek(); !ok || c != '"' {
			return s.fail("expected a string key")
		}
		raw, err := s.value()
		if err != nil {
			return err
		}
		key, err := decodeKey(raw)
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if _, ok := s.peek(); !ok {
			return s.fail("expected a value, found the end")
		}
		if err := member(key); err != nil {
			return err
		}
		c, ok := s.peek()
		switch {
		case ok && c == ',':
			s.pos++
		case ok && c == '}':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

// value consumes the value starting at the next byte and returns its raw
// text, valid until the window moves. It finds the value's end without
// checking it (the caller decodes it with jsonv, which does).
func (s *stateScanner) value() ([]byte, error) {
	if _, ok := s.peek(); !ok {
		return nil, s.fail("expected a value, found the end")
	}
	for {
		end := valueEnd(s.buf, s.pos)
		if end >= 0 && (end < len(s.buf) || s.eof) {
			raw := s.buf[s.pos:end]
			s.pos = end
			return raw, nil
		}
		if !s.more() {
			return nil, s.fail("unexpected end of input")
		}
	}
}

// rest reads everything that is left.
func (s *stateScanner) rest() ([]byte, error) {
	for s.more() {
	}
	if s.err != nil {
		return nil, s.err
	}
	return s.buf[s.pos:], nil
}

// valueEnd returns the index just past the value starting at b[i], or -1
// when b ends before it does. It only follows strings and brackets (any
// depth, no recursion); a number or literal ends at the first byte that
// cannot continue it (a value ending exactly at len(b) may go on).
func valueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			// From quote to quote: a quote after an even number of
			// backslashes ends the string.
			j := i + 1
			for {
				k := bytes.IndexByte(b[j:], '"')
				if k < 0 {
					return -1
				}
				j += k
				n := 0
				for p := j - 1; p > i && b[p] == '\\'; p-- {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			i = j + 1
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			if depth > 0 {
				i++
				continue
			}
			j := i
			for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
				j++
			}
			return j
		}
		if depth <= 0 {
			return i
		}
	}
	return -1
}

// recordDecoder decodes the records of "agents" on every core, a batch at
// a time, and keeps each key's last record.
type recordDecoder struct {
	file    string
	work    chan *recordBatch
	free    chan []byte // batch buffers to reuse (decoded strings are copies)
	wg      sync.WaitGroup
	batches []*recordBatch
	cur     *recordBatch
	stopped bool
}

// recordBatch is a run of records copied out of the window.
type recordBatch struct {
	generation int
	paths      []string
	ends       []int // raw[ends[k-1]:ends[k]] is record k's text
	raw        []byte
	out        []parsedRecord
	err        error
}

const batchBytes = 256 << 10

func newRecordDecoder(file string) *recordDecoder {
	d := &recordDecoder{file: file, work: make(chan *recordBatch, runtime.GOMAXPROCS(0)), free: make(chan []byte, 2*runtime.GOMAXPROCS(0)+2)}
	for range runtime.GOMAXPROCS(0) {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			in, memo := newInterner(), newRecordMemo()
			for b := range d.work {
				b.decode(file, in, memo)
				select {
				case d.free <- b.raw[:0]:
				default:
				}
				b.raw, b.ends = nil, nil
			}
		}()
	}
	return d
}

// add queues one record (raw is copied).
func (d *recordDecoder) add(generation int, path string, raw []byte) {
	if d.cur != nil && (d.cur.generation != generation || len(d.cur.raw) >= batchBytes) {
		d.send()
	}
	if d.cur == nil {
		var buf []byte
		select {
		case buf = <-d.free:
		default:
			buf = make([]byte, 0, batchBytes+64<<10)
		}
		d.cur = &recordBatch{generation: generation, raw: buf}
	}
	d.cur.paths = append(d.cur.paths, path)
	d.cur.raw = append(d.cur.raw, raw...)
	d.cur.ends = append(d.cur.ends, len(d.cur.raw))
}

func (d *recordDecoder) send() {
	d.batches = append(d.batches, d.cur)
	d.work <- d.cur
	d.cur = nil
}

// stop ends the decoders (after finish, or when reading failed).
func (d *recordDecoder) stop() {
	if !d.stopped {
		d.stopped = true
		close(d.work)
		d.wg.Wait()
	}
}

// finish waits for every batch and returns the records of the last
// generation, each key once with its last value, and the diagnostics about
// them, both in path order; an invalid record of any generation fails.
// Each record is copied once, into the result.
func (d *recordDecoder) finish(generation int) ([]Record, []Diagnostic, error) {
	if d.cur != nil {
		d.send()
	}
	d.stop()
	n := 0
	for _, b := range d.batches {
		if b.err != nil {
			return nil, nil, b.err
		}
		if b.generation == generation {
			n += len(b.out)
		}
	}
	// Where each key's last record is.
	type pick struct{ batch, k int }
	order := make([]string, 0, n)
	last := make(map[string]pick, n)
	for bi, b := range d.batches {
		if b.generation != generation {
			continue
		}
		for k, p := range b.paths {
			if _, ok := last[p]; !ok {
				order = append(order, p)
			}
			last[p] = pick{bi, k}
		}
	}
	// Sorted by path here, where a swap moves a string: sorting the
	// records (State's order) then finds them in order.
	sort.Strings(order)
	records := make([]Record, 0, len(order))
	var diags []Diagnostic
	for _, p := range order {
		at := last[p]
		r := &d.batches[at.batch].out[at.k]
		diags = append(diags, r.diags...)
		if r.ok {
			records = append(records, r.rec)
		}
		*r = parsedRecord{} // copied: let it go
	}
	return records, diags, nil
}

// decode reads each record of the batch; in shares the strings records
// repeat.
func (b *recordBatch) decode(file string, in interner, memo *recordMemo) {
	b.out = make([]parsedRecord, len(b.paths))
	start := 0
	for k, path := range b.paths {
		raw := b.raw[start:b.ends[k]]
		start = b.ends[k]
		v, err := memo.decode(raw)
		if err != nil {
			b.err = fmt.Errorf("agents[%q]: %w", path, err)
			break
		}
		b.out[k] = parseAgentRecord(path, v, file)
		in.record(&b.out[k].rec)
	}
}

// decodeKey decodes the raw text of a key (with its quotes) as JSON.parse
// does; plain ASCII keys, the agent paths, without a decode.
func decodeKey(quoted []byte) (string, error) {
	return decodeRawKey(quoted[1 : len(quoted)-1])
}

// knownKeys are the keys of records and descriptors, handed out without
// an allocation per member.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"descriptor", "sessionFile", "status", "runId", "error", "mailbox", "outbox", "lifecycle",
		"model", "thinking", "last_response", "version", "id", "path", "parentPath", "depth", "cwd", "createdAt",
		"agent", "thinkingLevel", "forkTurns", "settings", "anchorId"} {
		m[k] = k
	}
	return m
}()

// decodeRawKey decodes a key's text between its quotes.
func decodeRawKey(raw []byte) (string, error) {
	if k, ok := knownKeys[string(raw)]; ok {
		return k, nil
	}
	plain := true
	for _, c := range raw {
		if c < 0x20 || c >= 0x80 || c == '\\' || c == '"' {
			plain = false
			break
		}
	}
	if plain {
		return string(raw), nil
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	v, err := jsonv.Parse(quoted)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%w: a key is not a string", errStateSyntax)
	}
	return s, nil
}

// interner hands out one copy of each string it is given. The records of
// a tree repeat most of their text — every agent of a role carries the
// role's snapshot (its system prompt, description and tools), the same cwd,
// model and settings — and 100,000 copies of a system prompt are 50 MB.
type interner struct {
	strs  map[string]string
	lists map[string][]string
}

func newInterner() interner {
	return interner{strs: map[string]string{}, lists: map[string][]string{}}
}

func (in interner) s(v string) string {
	if c, ok := in.strs[v]; ok {
		return c
	}
	in.strs[v] = v
	return v
}

// record replaces the repeated strings of r with shared copies.
func (in interner) record(r *Record) {
	d := &r.Descriptor
	d.ParentPath, d.Cwd, d.ThinkingLevel, d.ForkTurns = in.s(d.ParentPath), in.s(d.Cwd), in.s(d.ThinkingLevel), in.s(d.ForkTurns)
	d.Model.Provider, d.Model.ID = in.s(d.Model.Provider), in.s(d.Model.ID)
	d.Settings.AgentScope = in.s(d.Settings.AgentScope)
	role := &d.Role
	role.Name, role.Description, role.Model, role.Thinking = in.s(role.Name), in.s(role.Description), in.s(role.Model), in.s(role.Thinking)
	role.SystemPrompt, role.Source = in.s(role.SystemPrompt), in.s(role.Source)
	for i, t := range role.Tools {
		role.Tools[i] = in.s(t)
	}
	if len(role.Tools) > 0 {
		// The list itself: one shared slice per distinct list (never
		// changed by readers).
		key := "\x00tools\x00" + strings.Join(role.Tools, "\x00")
		if shared, ok := in.lists[key]; ok {
			role.Tools = shared
		} else {
			in.lists[key] = role.Tools
		}
	}
	r.Status, r.Lifecycle, r.Error = in.s(r.Status), in.s(r.Lifecycle), in.s(r.Error)
	for _, box := range [][]Mail{r.Mailbox, r.Outbox} {
		for i := range box {
			m := &box[i]
			m.From, m.To, m.Kind, m.Text = in.s(m.From), in.s(m.To), in.s(m.Kind), in.s(m.Text)
		}
	}
}

// recordMemo decodes agent records for parseRecord: each record and its
// descriptor as members, each member's value by jsonv (so what is accepted
// is exactly what decoding the record whole accepts), reusing the values
// of descriptor members met before with the same text — every agent of a
// role carries the same role snapshot (descriptor.agent, most of a
// record's bytes), and settings and models repeat as much. A record the
// walk (session/internal/rawjson) cannot follow is decoded whole. Decoded
// values are shared between records and never changed.
type recordMemo struct {
	values map[string]any
	// scratch holds the members of the record and of its descriptor being
	// read: parseRecord keeps nothing of them.
	scratch [2]members
}

func newRecordMemo() *recordMemo { return &recordMemo{values: map[string]any{}} }

// maxMemo bounds the distinct member texts kept (a hostile file could make
// each one different).
const maxMemo = 4096

// memoMembers are the members whose values repeat across records: the
// role snapshot, settings and model of a descriptor, and the small values
// most agents share.
var memoMembers = map[string]bool{"agent": true, "settings": true, "model": true, "cwd": true, "parentPath": true,
	"thinkingLevel": true, "forkTurns": true, "version": true, "depth": true, "status": true, "lifecycle": true}

func (m *recordMemo) decode(raw []byte) (any, error) {
	if v, ok := m.object(raw, true); ok {
		return v, nil
	}
	return jsonv.Parse(raw)
}

// object decodes the object raw holds, member by member; record says it is
// a whole record (whose descriptor is decoded the same way, with its
// shared members). ok is false when raw is not an object the walk can
// follow or a member fails: the caller then decodes raw whole, for the
// value or the error.
func (m *recordMemo) object(raw []byte, record bool) (members, bool) {
	level := 1
	if record {
		level = 0
	}
	o := m.scratch[level][:0]
	defer func() { m.scratch[level] = o[:0] }()
	ok := true
	end := rawjson.WalkObject(raw, rawjson.SkipWS(raw, 0), 0, func(rawKey, b []byte, v, depth int) int {
		vend := rawjson.SkipAt(b, v, depth)
		key, err := decodeRawKey(rawKey)
		if vend < 0 || err != nil {
			ok = false
			return -1
		}
		text := b[v:vend]
		var val any
		switch {
		case record && key == "descriptor" && text[0] == '{':
			d, dok := m.object(text, false)
			if !dok {
				ok = false
				return -1
			}
			val = d
		case memoMembers[key]:
			if c, hit := m.values[string(text)]; hit {
				val = c
				break
			}
			if val, err = jsonv.Parse(text); err != nil {
				ok = false
				return -1
			}
			if len(m.values) < maxMemo {
				m.values[string(text)] = val
			}
		default:
			if val, err = jsonv.Parse(text); err != nil {
				ok = false
				return -1
			}
		}
		o = append(o, member{key, val})
		return vend
	})
	if !ok || end < 0 || rawjson.SkipWS(raw, end) != len(raw) {
		return nil, false
	}
	return o, true
}
