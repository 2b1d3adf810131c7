package replay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
)

// Custom entry types pi-forge writes that can move the prompt.
const (
	customCapabilityEvent = "pi-forge-capability-event"
	customPresetState     = "pi-forge-prompt-stack-state"
)

// ExplainDiff names what changed the first changed block of d (a before →
// after comparison), where the data says so; nil otherwise. Only changes
// inside what the earlier request already held count: appending messages
// does not break the cache and has no cause.
func ExplainDiff(before, after *Resolved, d *turndiff.Diff) *turndiff.Cause {
	if before.Stack != nil && after.Stack != nil && sameEntry(before, after) {
		return turndiff.ExplainPresetChange(d, &before.Turn, &after.Turn,
			turndiff.PresetChanges(before.Stack, after.Stack), after.PresetID)
	}
	row, offset, ok := turndiff.BoundaryChange(d, &before.Turn.Turn)
	if !ok {
		return nil
	}
	b := &d.Blocks[row]
	key := ""
	if b.After != nil {
		key = b.After.Key
	} else {
		key = b.Before.Key
	}
	if before.Request != nil && after.Request != nil && before.Session == after.Session {
		if c := explainSessionChange(before, after, b, key); c != nil {
			if c.Kind == turndiff.CausePreset {
				return switchedRules(d, row, before, after, c)
			}
			return c
		}
	}
	if c := turndiff.CauseFromOrigins(d, row, offset, &before.Turn, &after.Turn); c != nil {
		return c
	}
	return explainByKey(b, key)
}

// switchedRules settles a Preset switch whose Presets compiled the same
// system prompt before their regex rules ran and rewrote it differently:
// the rule at row decides and the switch is listed. Otherwise the switch
// stays the cause.
func switchedRules(d *turndiff.Diff, row int, before, after *Resolved, switched *turndiff.Cause) *turndiff.Cause {
	rc, ok := turndiff.RegexChange(d, row, &before.Turn, &after.Turn)
	if !ok || rc == nil || rc.Kind != turndiff.CauseRegex {
		return switched
	}
	rc.Also = append(rc.Also, turndiff.CausePreset)
	return rc
}

func sameEntry(a, b *Resolved) bool {
	return a.Session != nil && a.Session == b.Session && a.Index == b.Index
}

// explainByKey reads the cause off the block itself: the model or the tool
// declarations of the request, when both sides are request fields that
// parse.
func explainByKey(b *turndiff.DiffBlock, key string) *turndiff.Cause {
	for _, side := range []*turndiff.Block{b.Before, b.After} {
		if side == nil {
			continue
		}
		if side.Role != turndiff.RoleRequest {
			return nil
		}
		if v, err := jsonv.Parse([]byte(side.Text)); err != nil || v == nil {
			return nil
		} else if _, ok := v.(*jsonv.Object); !ok {
			return nil
		}
	}
	switch key {
	case turndiff.KeyRequestField + "model":
		return &turndiff.Cause{Kind: turndiff.CauseModel, Block: key, Detail: "model " + fieldText(b.Before, "model") + " → " + fieldText(b.After, "model")}
	case turndiff.KeyRequestField + "tools":
		return &turndiff.Cause{Kind: turndiff.CauseTools, Block: key, Detail: "tools " + toolDelta(b.Before, b.After)}
	}
	return nil
}

// fieldText is the value of a request-field block ({"<name>": value}),
// "(none)" when the block is absent.
func fieldText(b *turndiff.Block, name string) string {
	if b == nil {
		return "(none)"
	}
	v, err := jsonv.Parse([]byte(b.Text))
	if o, ok := v.(*jsonv.Object); err == nil && ok {
		if x, ok := o.Get(name); ok {
			if s, ok := x.(string); ok {
				return s
			}
			return jsonv.Stringify(x)
		}
	}
	return "(unreadable)"
}

// toolDelta lists the tool names added and removed between two
// request-tools blocks: "+edit +write −bash".
func toolDelta(before, after *turndiff.Block) string {
	names := func(b *turndiff.Block) []string {
		if b == nil {
			return nil
		}
		v, _ := jsonv.Parse([]byte(b.Text))
		o, _ := v.(*jsonv.Object)
		if o == nil {
			return nil
		}
		lv, _ := o.Get("tools")
		list, _ := lv.([]any)
		var out []string
		for _, t := range list {
			to, _ := t.(*jsonv.Object)
			out = append(out, toolName(to))
		}
		return out
	}
	a, z := names(before), names(after)
	var parts []string
	for _, n := range z {
		if !containsString(a, n) {
			parts = append(parts, "+"+n)
		}
	}
	for _, n := range a {
		if !containsString(z, n) {
			parts = append(parts, "−"+n)
		}
	}
	if len(parts) == 0 {
		return "redeclared"
	}
	return strings.Join(parts, " ")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// explainSessionChange looks at the entries that lie on one request's path
// and not on the other's.
func explainSessionChange(before, after *Resolved, b *turndiff.DiffBlock, key string) *turndiff.Cause {
	s := after.Session
	ra, rb := before.Request, after.Request
	split := splitPaths(ra.Path, rb.Path)
	var added, dropped []int
	for _, i := range rb.Path[split.common:] {
		if !split.tailA[i] {
			added = append(added, i)
		}
	}
	for _, i := range ra.Path[split.common:] {
		if !split.tailB[i] {
			dropped = append(dropped, i)
		}
	}
	ranges := [][]int{added, dropped}
	c := &turndiff.Cause{Block: key}
	switch {
	case key == turndiff.KeyRequestField+"model":
		c.Kind = turndiff.CauseModel
		c.Detail = "model " + fieldText(b.Before, "model") + " → " + fieldText(b.After, "model")
		if i, ok := lastOfType(s, ranges, session.TypeModelChange); ok {
			c.EntryID = s.Entries[i].ID
		} else if rb.ForAssistant {
			c.EntryID = s.Entries[rb.Entry].ID
		}
		return c
	case key == turndiff.KeyRequestField+"tools":
		delta := toolDelta(b.Before, b.After)
		if i, ev, ok := lastCapabilityEvent(s, ranges); ok {
			c.Kind, c.EntryID, c.CapabilityID = turndiff.CauseCapability, s.Entries[i].ID, ev.capability
			c.Detail = "capability " + ev.label + " " + ev.verb() + ": tools " + delta
			return c
		}
		c.Kind, c.Detail = turndiff.CauseTools, "tools "+delta
		if i, ok := lastSystemMessage(s, ranges, true); ok {
			c.EntryID = s.Entries[i].ID
		}
		return c
	}
	if rb.CompactionIndex >= 0 && rb.CompactionIndex != ra.CompactionIndex {
		c.Kind, c.EntryID, c.Detail = turndiff.CauseCompaction, s.Entries[rb.CompactionIndex].ID, "a compaction replaced the history"
		return c
	}
	if ra.CompactionIndex >= 0 && ra.CompactionIndex != rb.CompactionIndex {
		c.Kind, c.EntryID, c.Detail = turndiff.CauseCompaction, s.Entries[ra.CompactionIndex].ID, "the other request is after a compaction"
		return c
	}
	isSystem := key == turndiff.KeySystem || (b.After != nil && b.After.Role == session.RoleSystem) || (b.Before != nil && b.Before.Role == session.RoleSystem)
	if isSystem {
		if i, ev, ok := lastCapabilityEvent(s, ranges); ok {
			c.Kind, c.EntryID, c.CapabilityID = turndiff.CauseCapability, s.Entries[i].ID, ev.capability
			c.Detail = "capability " + ev.label + " " + ev.verb()
			return c
		}
		if i, ok := lastCustom(s, ranges, customPresetState); ok {
			id := presetStateID(&s.Entries[i])
			c.Kind, c.EntryID, c.PresetID, c.Detail = turndiff.CausePreset, s.Entries[i].ID, id, "preset "+id+" became active"
			return c
		}
		if i, ok := lastSystemMessage(s, ranges, false); ok {
			c.Kind, c.EntryID, c.Detail = turndiff.CauseSystemPrompt, s.Entries[i].ID, "Pi recorded a new system prompt"
			return c
		}
		return nil
	}
	// A message: pi-forge's compile of a turn's first request against a
	// follow-up's natural context, different branches, or a context edit.
	if ra.PresetID != "" && ra.PresetID == rb.PresetID && ra.MessagesCompiled != rb.MessagesCompiled {
		compiled := ra
		if rb.MessagesCompiled {
			compiled = rb
		}
		c.Kind, c.PresetID, c.EntryID = turndiff.CausePreset, rb.PresetID, s.Entries[compiled.Entry].ID
		c.Detail = "Preset " + rb.PresetID + " compiled the messages of the first request of the turn (entry " + sanitize.Clip(s.Entries[compiled.Entry].ID, 20) +
			"); a tool-result follow-up carries Pi's natural context"
		return c
	}
	beforeEntry, afterEntry := "", ""
	if b.Before != nil {
		beforeEntry = ra.EntryOf[b.Before.Key]
	}
	if b.After != nil {
		afterEntry = rb.EntryOf[b.After.Key]
	}
	if i, ok := lastOfType(s, [][]int{added}, session.TypeContextEdit); ok {
		target, _ := s.Entries[i].Field("targetId").Str()
		if target != "" && (target == afterEntry || target == beforeEntry) {
			c.Kind, c.EntryID, c.Detail = turndiff.CauseContextEdit, s.Entries[i].ID, "a context edit rewrote entry "+sanitize.Clip(target, 20)
			return c
		}
	}
	if len(added) > 0 && len(dropped) > 0 && (afterEntry == "" || !split.onA(indexOrNeg(s, afterEntry))) {
		fork := split.lastCommon()
		c.Kind, c.Detail = turndiff.CauseBranch, "the requests are on different branches"
		if fork >= 0 {
			c.EntryID = s.Entries[fork].ID
			c.Detail += "; they part after entry " + sanitize.Clip(s.Entries[fork].ID, 20)
		}
		return c
	}
	return nil
}

func indexOrNeg(s *session.Session, id string) int {
	if i, ok := s.IndexOf(id); ok {
		return i
	}
	return -1
}

// pathSplit is two request paths apart: their common prefix and the
// entries of each past it. A path holds no entry twice, so an entry past
// the prefix of one path is on the other only if it is past the other's
// prefix too: sets of the tails (a few entries between two requests)
// answer what sets of whole paths did, without building sets as large as
// the session is deep for every diff.
type pathSplit struct {
	a, b         []int
	common       int
	tailA, tailB map[int]bool
}

func splitPaths(a, b []int) pathSplit {
	p := pathSplit{a: a, b: b}
	for p.common < len(a) && p.common < len(b) && a[p.common] == b[p.common] {
		p.common++
	}
	p.tailA, p.tailB = indexSet(a[p.common:]), indexSet(b[p.common:])
	return p
}

// onA reports whether entry i is on path a.
func (p *pathSplit) onA(i int) bool { return p.tailA[i] || slices.Contains(p.a[:p.common], i) }

// lastCommon is the last entry of a, read from its root, before the first
// one that is not on b (-1 none).
func (p *pathSplit) lastCommon() int {
	last := -1
	if p.common > 0 {
		last = p.a[p.common-1]
	}
	for _, i := range p.a[p.common:] {
		if !p.tailB[i] {
			break
		}
		last = i
	}
	return last
}

func indexSet(path []int) map[int]bool {
	m := make(map[int]bool, len(path))
	for _, i := range path {
		m[i] = true
	}
	return m
}

func lastOfType(s *session.Session, ranges [][]int, typ string) (int, bool) {
	for _, r := range ranges {
		for k := len(r) - 1; k >= 0; k-- {
			if s.Entries[r[k]].Type == typ {
				return r[k], true
			}
		}
	}
	return 0, false
}

func lastCustom(s *session.Session, ranges [][]int, customType string) (int, bool) {
	for _, r := range ranges {
		for k := len(r) - 1; k >= 0; k-- {
			e := &s.Entries[r[k]]
			if e.Type == session.TypeCustom && e.Field("customType").StrOr("") == customType {
				return r[k], true
			}
		}
	}
	return 0, false
}

// lastSystemMessage finds a system message entry (with a tool change when
// tools is set).
func lastSystemMessage(s *session.Session, ranges [][]int, tools bool) (int, bool) {
	for _, r := range ranges {
		for k := len(r) - 1; k >= 0; k-- {
			e := &s.Entries[r[k]]
			if e.Type != session.TypeMessage || e.Role != session.RoleSystem {
				continue
			}
			if !tools || e.MessageField("toolsAdded").Present() || e.MessageField("toolsRemoved").Present() {
				return r[k], true
			}
		}
	}
	return 0, false
}

// capabilityEvent is what a cause needs of a pi-forge-capability-event.
type capabilityEvent struct {
	op, capability, label string
}

func (ev capabilityEvent) verb() string {
	switch ev.op {
	case "activate":
		return "activated"
	case "deactivate":
		return "deactivated"
	case "reset":
		return "reset"
	}
	return ev.op
}

func lastCapabilityEvent(s *session.Session, ranges [][]int) (int, capabilityEvent, bool) {
	i, ok := lastCustom(s, ranges, customCapabilityEvent)
	if !ok {
		return 0, capabilityEvent{}, false
	}
	return i, readCapabilityEvent(s, &s.Entries[i]), true
}

// readCapabilityEvent decodes the fields a cause shows; a deactivation
// names its capability through the activation it ends.
func readCapabilityEvent(s *session.Session, e *session.Entry) capabilityEvent {
	ev := capabilityEvent{label: "(all)"}
	data := eventData(e)
	ev.op = data.GetString("op")
	snap := asObject(field(data, "snapshot"))
	if ev.op == "deactivate" {
		act := data.GetString("activationId")
		ev.label = sanitize.Clip(act, 40)
		for k := range s.Entries {
			other := &s.Entries[k]
			if other.Type != session.TypeCustom || other.Field("customType").StrOr("") != customCapabilityEvent {
				continue
			}
			od := eventData(other)
			if os := asObject(field(od, "snapshot")); os != nil && os.GetString("activationId") == act {
				snap = os
				break
			}
		}
	}
	if snap != nil {
		key := asObject(field(asObject(field(snap, "source")), "key"))
		if id := key.GetString("id"); id != "" {
			ev.capability = id
			if scope := key.GetString("scope"); scope != "" {
				ev.capability = scope + ":" + id
			}
		}
		switch name := snap.GetString("name"); {
		case name != "":
			ev.label = fmt.Sprintf("%q", sanitize.Clip(name, 60))
		case ev.capability != "":
			ev.label = ev.capability
		}
	}
	return ev
}

func eventData(e *session.Entry) *jsonv.Object {
	v, _, err := e.Field("data").Decode()
	if err != nil {
		return nil
	}
	return asObject(v)
}

func field(o *jsonv.Object, name string) any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(name)
	return v
}

func presetStateID(e *session.Entry) string {
	return eventData(e).GetString("activeStackId")
}
