package capability

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// fastDecodeEvent decodes an event payload written in exactly the layout
// pi-forge (and this package) persist — JSON.stringify of the decoded
// event, keys in their fixed order — straight from the bytes, without
// building a JSON value tree, and checks every rule DecodeEvent checks.
// It reports false for anything else (another key order, extra
// whitespace, a rule violation …); the caller then runs DecodeEvent,
// which is the authority on messages. Reading long histories is dominated
// by event decoding, hence this path.
func fastDecodeEvent(raw []byte) (Event, bool) {
	d := decoder{b: raw}
	var ev Event
	var op, actor string
	ok := d.lit(`{"schemaVersion":1,"eventId":`) && d.str(&ev.EventID) &&
		d.lit(`,"op":`) && d.str(&op) && d.lit(`,"actor":`) && d.str(&actor) &&
		d.lit(`,"createdAt":`) && d.num(&ev.CreatedAt)
	if !ok || math.IsInf(ev.CreatedAt, 0) || ev.CreatedAt < 0 || !validID(ev.EventID) {
		return Event{}, false
	}
	if ev.CreatedAt == 0 {
		ev.CreatedAt = 0
	}
	ev.Op, ev.Actor = Op(op), Actor(actor)
	switch ev.Op {
	case OpReset:
		if actor != string(ActorUser) || !d.lit(`}`) {
			return Event{}, false
		}
	case OpDeactivate:
		if (actor != string(ActorUser) && actor != string(ActorAgent) && actor != string(ActorLifecycle)) ||
			!d.lit(`,"activationId":`) || !d.str(&ev.ActivationID) || !d.lit(`}`) || !validID(ev.ActivationID) {
			return Event{}, false
		}
	case OpActivate:
		if actor != string(ActorUser) && actor != string(ActorAgent) {
			return Event{}, false
		}
		snap, ok := d.snapshot(ev.Actor)
		if !ok || !d.lit(`}`) {
			return Event{}, false
		}
		ev.Snapshot = snap
	default:
		return Event{}, false
	}
	return ev, d.i == len(d.b)
}

func validID(s string) bool { return len(s) <= MaxIDLength && preset.IsValidResourceID(s) }

func (d *decoder) snapshot(actor Actor) (*Snapshot, bool) {
	s := &Snapshot{}
	if !d.lit(`,"snapshot":{"activationId":`) || !d.str(&s.ActivationID) || !validID(s.ActivationID) || !d.lit(`,"source":`) {
		return nil, false
	}
	if !d.source(&s.Source) {
		return nil, false
	}
	if actor == ActorAgent && (s.Source.Kind != SourceCapability || s.Source.Binding == nil) {
		return nil, false
	}
	if s.Source.Kind == SourceManual && actor != ActorUser {
		return nil, false
	}
	if d.lit(`,"name":`) {
		var name string
		if !d.str(&name) || jsonv.UTF16Len(name) > MaxNameLength {
			return nil, false
		}
		s.Name = &name
	}
	if !d.lit(`,"content":`) || !d.str(&s.Content) || jsonv.UTF16Len(s.Content) > MaxContentLength {
		return nil, false
	}
	if !d.lit(`,"tools":{"add":`) || !d.strs(&s.Tools.Add) || !d.lit(`,"remove":`) || !d.strs(&s.Tools.Remove) || !d.lit(`},"fingerprint":`) {
		return nil, false
	}
	if jsonv.TrimJS(s.Content) == "" && !s.Tools.HasEffect() {
		return nil, false
	}
	if !d.str(&s.Fingerprint) || !d.lit(`}`) || !fingerprint.IsFingerprint(s.Fingerprint) ||
		s.Fingerprint != SnapshotFingerprint(s.Source, s.Name, s.Content, s.Tools) {
		return nil, false
	}
	return s, true
}

func (d *decoder) source(src *SnapshotSource) bool {
	if d.lit(`{"kind":"manual"}`) {
		src.Kind = SourceManual
		return true
	}
	if !d.lit(`{"kind":"capability","key":`) || !d.key(&src.Key) {
		return false
	}
	if d.lit(`,"binding":{"preset":`) {
		b := &SnapshotBinding{}
		if !d.key(&b.Preset) || !d.lit(`,"id":`) || !d.str(&b.ID) || !preset.IsValidResourceID(b.ID) || !d.lit(`}`) {
			return false
		}
		if b.Preset.Scope == preset.ScopeGlobal && src.Key.Scope == preset.ScopeProject {
			return false
		}
		src.Binding = b
	}
	src.Kind = SourceCapability
	return d.lit(`}`)
}

func (d *decoder) key(k *Key) bool {
	var scope string
	if !d.lit(`{"scope":`) || !d.str(&scope) || !d.lit(`,"id":`) || !d.str(&k.ID) || !d.lit(`}`) {
		return false
	}
	k.Scope = preset.Scope(scope)
	return isScope(scope) && preset.IsValidResourceID(k.ID)
}

// decoder walks exact JSON text.
type decoder struct {
	b []byte
	i int
}

// lit consumes s when the input continues with it.
func (d *decoder) lit(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

// str reads a JSON string: plain runs directly, anything with an escape
// through the JSON parser (JavaScript string semantics, lone surrogates).
func (d *decoder) str(out *string) bool {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return false
	}
	start, escaped := d.i, false
	j := d.i + 1
	for ; j < len(d.b); j++ {
		c := d.b[j]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return false
		}
		if c == '\\' {
			escaped = true
			j++
		}
	}
	if j >= len(d.b) {
		return false
	}
	d.i = j + 1
	if !escaped {
		body := d.b[start+1 : j]
		if !utf8.Valid(body) {
			return false // the JSON parser substitutes U+FFFD; leave it to it
		}
		*out = string(body)
		return true
	}
	v, err := jsonv.Parse(d.b[start:d.i])
	s, ok := v.(string)
	if err != nil || !ok {
		return false
	}
	*out = s
	return true
}

// strs reads an array of valid concrete tool names (≤ 256).
func (d *decoder) strs(out *[]string) bool {
	if !d.lit(`[`) {
		return false
	}
	list := []string{}
	if !d.lit(`]`) {
		for {
			var s string
			if !d.str(&s) || !preset.IsValidToolName(s) {
				return false
			}
			list = append(list, s)
			if d.lit(`]`) {
				break
			}
			if !d.lit(`,`) {
				return false
			}
		}
	}
	if len(list) > MaxToolListLength {
		return false
	}
	*out = list
	return true
}

// num reads a JSON number token.
func (d *decoder) num(out *float64) bool {
	j := d.i
	if j < len(d.b) && d.b[j] == '-' {
		j++
	}
	digits := func() bool {
		k := j
		for j < len(d.b) && d.b[j] >= '0' && d.b[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(d.b) && d.b[j] == '0' {
		j++
	} else if !digits() {
		return false
	}
	if j < len(d.b) && d.b[j] == '.' {
		j++
		if !digits() {
			return false
		}
	}
	if j < len(d.b) && (d.b[j] == 'e' || d.b[j] == 'E') {
		j++
		if j < len(d.b) && (d.b[j] == '+' || d.b[j] == '-') {
			j++
		}
		if !digits() {
			return false
		}
	}
	f, err := strconv.ParseFloat(string(d.b[d.i:j]), 64)
	if err != nil {
		return false
	}
	*out, d.i = f, j
	return true
}
