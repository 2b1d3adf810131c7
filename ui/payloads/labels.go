package payloads

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// refLabel names a resolved reference in one line (sanitised).
func refLabel(r *replay.Resolved) string {
	t := &r.Turn.Turn
	size := i18n.T(" · %d blocks · ~%d tok", len(t.Blocks), t.ApproxTokens())
	switch {
	case r.File != nil:
		kind := i18n.Mark("saved payload %s")
		switch {
		case r.File.Kind == session.PayloadTurn:
			kind = i18n.Mark("turn snapshot %s")
		case !r.File.Valid && r.File.Recovery != nil && r.File.Recovery.Noted:
			kind = i18n.Mark("saved payload (cut: not JSON) %s")
		case !r.File.Valid:
			kind = i18n.Mark("saved payload (not JSON) %s") // no truncation note: broken, not cut by pi-forge
		}
		return sanitize.Line(i18n.T(kind, filepath.Base(r.File.Path))) + size
	case r.Ref.Kind == replay.RefPreset && r.Request != nil:
		return sanitize.Line(i18n.T("preset %s at %s", r.PresetID, r.Session.Entries[r.Index].ID)) + size
	case r.Request != nil:
		e := &r.Session.Entries[r.Index]
		what := i18n.T("next request from %s", e.ID)
		if r.Request.ForAssistant {
			what = i18n.T("request for %s", e.ID)
		}
		if r.Request.Model != "" {
			what += " (" + r.Request.Model + ")"
		}
		if len(e.Timestamp) >= 16 {
			what += " " + strings.Replace(e.Timestamp[:16], "T", " ", 1)
		}
		if r.Request.PresetID != "" {
			what += " · pi-forge " + r.Request.PresetID //i18n:raw product name and a preset id
		}
		return sanitize.Line(what) + size
	}
	return sanitize.Line(r.Ref.Raw)
}
