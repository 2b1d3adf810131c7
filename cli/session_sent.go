package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/replay"
)

// runAsSent is `session context --as-sent`: the request at the entry as
// the provider received it, resolved exactly as `payload show
// session:FILE#ENTRY` resolves it (the same resolver, so the same
// replay.RequestWith with pi-forge's rewrite). --json prints payload
// show's document unchanged.
func (c *SessionContextCmd) runAsSent(g *Globals) error {
	rv, err := g.resolver()
	if err != nil {
		return err
	}
	ref := replay.Ref{Kind: replay.RefSession, Path: c.File, Entry: c.Leaf}.String()
	r, err := resolveRef(rv, ref)
	if err != nil {
		return err
	}
	g.sessionNotes(r.Session, r.Session.LoadNotes())
	if c.JSON {
		return printCompact(g, showJSON(r))
	}
	writeSent(g.stdout, r)
	return nil
}

// writeSent prints a rebuilt request the way writeContext prints Pi's
// context: which request it is and what rewrote it, then the system
// prompt and each message as the provider received them.
func writeSent(w io.Writer, r *replay.Resolved) {
	q := r.Request
	what := i18n.T("next request from entry %s", sanitize.Clip(r.Session.Entries[r.Index].ID, 80))
	if q.ForAssistant {
		what = i18n.T("request for assistant entry %s", sanitize.Clip(r.Session.Entries[r.Index].ID, 80))
		if q.ContextIndex >= 0 {
			what = i18n.T("request for assistant entry %s (context at %s)", sanitize.Clip(r.Session.Entries[r.Index].ID, 80), sanitize.Clip(r.Session.Entries[q.ContextIndex].ID, 80))
		}
	}
	model := i18n.T("none")
	if q.Provider != "" || q.Model != "" {
		model = q.Provider + "/" + q.Model
	}
	thinking := q.ThinkingLevel
	if thinking == "" {
		thinking = "off"
	}
	msgs, _ := q.Payload.Get("messages")
	list, _ := msgs.([]any)
	system, hasSystem := q.Payload.Get("system")
	n := len(list)
	if hasSystem {
		n++
	}
	fmt.Fprint(w, i18n.T("as sent · %s · model %s · thinking %s · %d messages\n", what, sanitize.Clip(model, 80), sanitize.Clip(thinking, 40), n))
	switch {
	case q.PresetID != "":
		fmt.Fprint(w, i18n.T("pi-forge: Preset %s compiled this request\n", sanitize.Line(q.PresetID)))
	case q.Rewritten:
		fmt.Fprintln(w, i18n.T("pi-forge rewrote this request (no Preset in force)"))
	default:
		fmt.Fprintln(w, i18n.T("nothing rewrote this request: Pi built it alone"))
	}
	if q.RuntimeSource != "" {
		fmt.Fprint(w, i18n.T("runtime: %s\n", sanitize.Line(q.RuntimeSource)))
	}
	for _, note := range q.Inferred {
		fmt.Fprint(w, i18n.T("inferred: %s\n", sanitize.Line(note)))
	}
	tools := i18n.T("none")
	if len(q.Tools) > 0 {
		tools = sanitize.Line(strings.Join(q.Tools, ", "))
	}
	fmt.Fprint(w, i18n.T("tools (%d): %s\n", len(q.Tools), tools))
	k := 0
	if hasSystem {
		k++
		fmt.Fprintf(w, "\n── %d · system ──\n%s\n", k, sanitize.Text(jsonv.ToString(system))) //i18n:raw the message's role, as the other messages show theirs
	}
	for _, m := range list {
		k++
		obj, _ := m.(*jsonv.Object)
		role := "?"
		if obj != nil {
			if v, ok := obj.Get("role"); ok {
				role, _ = v.(string)
			}
		}
		fmt.Fprintf(w, "\n── %d · %s ──\n%s\n", k, sanitize.Clip(role, 40), sanitize.Text(messageText(obj)))
	}
}
