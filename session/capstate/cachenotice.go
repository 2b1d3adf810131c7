package capstate

import (
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// CacheNotice is the prompt-cache impact notice pi-forge 0.5.4 and later
// shows after /preset use and after /profile use (its Preset step)
// (compile.StackSwitchCacheWarning) for a planned Preset switch p at the
// session's leaf; "" when the switch keeps the Preset, whatever else a
// profile changes. As pi-forge, it compares the current Preset's system
// prompt with the next one's, both compiled against the runtime and base
// prompt Pi recorded at the leaf, and names what the last request read
// from the cache. pi-forge knows that prompt only while the last request
// was compiled with the current Preset in its process; offline that is
// read from the branch: Pi recorded the runtime there (Pi >= 0.86), and a
// request came after the current Preset was selected. Otherwise the
// notice is pi-forge's "cannot be estimated" one.
func CacheNotice(s *session.Session, p *Plan, in Inputs) string {
	if p == nil || p.Op.Kind != OpUsePreset || p.After == nil {
		return ""
	}
	sw := compile.StackSwitch{}
	if cur := p.Before.Preset; cur != nil {
		sw.CurrentKey, sw.Current = cur.Key.String(), cur.Stack
	}
	if next := p.After.Preset; next != nil {
		sw.NextKey, sw.Next = next.Key.String(), next.Stack
	}
	if sw.CurrentKey == sw.NextKey {
		return ""
	}
	leaf := s.LeafIndex()
	if sw.Current != nil && leaf >= 0 {
		report := replay.CacheReportAt(s, leaf)
		if n := len(report.Uses); n > 0 && report.Uses[n-1].Index > lastPresetSelection(s, leaf) {
			last := report.Uses[n-1]
			sw.Usage = &compile.CacheUsage{Reported: last.Reported, CacheRead: last.CacheRead}
			if rc, err := replay.RunContextAt(s, leaf, in.Catalog, time.Local, nil); err == nil && rc.FromSession {
				sw.Compiled, sw.Runtime, sw.Base = true, rc.Runtime, rc.Base
			}
		}
	}
	return compile.StackSwitchCacheWarning(sw)
}

// lastPresetSelection is the index of the last Preset selection entry on
// the branch ending at leaf, -1 when it records none.
func lastPresetSelection(s *session.Session, leaf int) int {
	path := s.PathTo(leaf)
	for k := len(path) - 1; k >= 0; k-- {
		e := &s.Entries[path[k]]
		if e.Type != session.TypeCustom {
			continue
		}
		if ct, _, ok := e.CustomPayload(); ok && ct == replay.PresetStateType {
			return path[k]
		}
	}
	return -1
}
