package payloads

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// refLabel names a resolved reference in one line (sanitised).
func refLabel(r *replay.Resolved) string {
	t := &r.Turn.Turn
	size := fmt.Sprintf(" · %d blocks · ~%d tok", len(t.Blocks), t.ApproxTokens())
	switch {
	case r.File != nil:
		kind := "saved payload"
		switch {
		case r.File.Kind == session.PayloadTurn:
			kind = "turn snapshot"
		case !r.File.Valid && r.File.Recovery != nil && r.File.Recovery.Noted:
			kind = "saved payload (cut: not JSON)"
		case !r.File.Valid:
			kind = "saved payload (not JSON)" // no truncation note: broken, not cut by pi-forge
		}
		return sanitize.Line(kind+" "+filepath.Base(r.File.Path)) + size
	case r.Ref.Kind == replay.RefPreset && r.Request != nil:
		return sanitize.Line("preset "+r.PresetID+" at "+r.Session.Entries[r.Index].ID) + size
	case r.Request != nil:
		e := &r.Session.Entries[r.Index]
		what := "next request from " + e.ID
		if r.Request.ForAssistant {
			what = "request for " + e.ID
		}
		if r.Request.Model != "" {
			what += " (" + r.Request.Model + ")"
		}
		if len(e.Timestamp) >= 16 {
			what += " " + strings.Replace(e.Timestamp[:16], "T", " ", 1)
		}
		if r.Request.PresetID != "" {
			what += " · pi-forge " + r.Request.PresetID
		}
		return sanitize.Line(what) + size
	}
	return sanitize.Line(r.Ref.Raw)
}
