package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// lineContext is how many unchanged lines surround a change in the line
// diffs of `payload diff` (git's default).
const lineContext = 3

// describeRef is one line naming a resolved reference for humans.
func describeRef(r *replay.Resolved) string {
	return describeRefOf(r, len(r.Turn.Turn.Blocks), r.Turn.Turn.ApproxTokens())
}

// describeRefOf is describeRef for a request of blocks blocks and about
// tokens tokens.
func describeRefOf(r *replay.Resolved, blocks, tokens int) string {
	what := ""
	switch {
	case r.File != nil && r.File.Kind == session.PayloadTurn:
		what = i18n.T("turn snapshot")
	case r.File != nil && !r.File.Valid:
		what = i18n.T("saved payload, not valid JSON")
	case r.File != nil:
		what = i18n.T("saved payload")
	case r.Ref.Kind == replay.RefPreset && r.Request != nil:
		what = i18n.T("preset %s at entry %s", r.PresetID, r.Session.Entries[r.Index].ID)
	case r.Request != nil && r.Request.ForAssistant:
		what = i18n.T("request for assistant entry %s", r.Session.Entries[r.Index].ID)
	case r.Request != nil:
		what = i18n.T("next request from entry %s", r.Session.Entries[r.Index].ID)
	}
	return i18n.T("%s · %s · %d block(s) · ~%s tokens", sanitize.Line(r.Ref.Raw), sanitize.Line(what), blocks, count(float64(tokens)))
}

// writeShow prints every block of one request, then what a cut capture
// lost and what the display rendering redacted.
func writeShow(w io.Writer, r *replay.Resolved) {
	fmt.Fprintln(w, describeRef(r))
	if q := r.Request; q != nil && q.Model != "" {
		fmt.Fprint(w, i18n.T("model %s/%s · %d tool(s)\n", sanitize.Line(q.Provider), sanitize.Line(q.Model), len(q.Tools)))
	}
	if q := r.Request; q != nil {
		if q.PresetID != "" && r.Ref.Kind == replay.RefSession {
			fmt.Fprint(w, i18n.T("pi-forge: Preset %s compiled this request\n", sanitize.Line(q.PresetID)))
		}
		if q.RuntimeSource != "" {
			fmt.Fprint(w, i18n.T("runtime: %s\n", sanitize.Line(q.RuntimeSource)))
		}
		for _, note := range q.Inferred {
			fmt.Fprint(w, i18n.T("inferred: %s\n", sanitize.Line(note)))
		}
	}
	blocks := r.Turn.Turn.Blocks
	if r.File != nil && r.File.TurnError != "" {
		fmt.Fprint(w, i18n.T("shaped like a turn snapshot but %s: read as a saved payload\n", sanitize.Line(strings.TrimPrefix(r.File.TurnError, turndiff.ErrNotTurn.Error()+": "))))
	}
	if r.File != nil && r.File.Recovery != nil {
		writeRecovery(w, r.File)
		if t, ok := r.File.RecoveredTurn(); ok {
			fmt.Fprintln(w, i18n.T("\nrecovered blocks (the diff compares the whole text as one payload-text block):"))
			blocks = t.Blocks
		}
	}
	var buf []byte
	for i := range blocks {
		b := &blocks[i]
		origin := ""
		if o, ok := r.Turn.Blocks[b.Key]; ok && o.Label != "" {
			origin = " · " + sanitize.Line(turndiff.OriginLabel(o))
		}
		buf = appendShownBlock(buf[:0], i, b, origin)
		w.Write(buf)
	}
	if r.File != nil {
		writeLosses(w, r.File.Losses)
	}
	if q := r.Request; q != nil && q.Usage != nil {
		uses, _ := turndiff.CacheSeries([]turndiff.Usage{*q.Usage})
		fmt.Fprint(w, i18n.T("\nrecorded usage: %s\n", describeCacheUse(&uses[0])))
	}
}

// writeShowStream is writeShow for a saved payload shown as it is read
// (session.PayloadStream): the same lines, block by block.
func writeShowStream(w io.Writer, ref replay.Ref, ps *session.PayloadStream) {
	r := &replay.Resolved{Ref: ref, Index: -1, File: &session.PayloadFile{Path: ps.Path, Kind: session.PayloadCapture, Valid: true}}
	fmt.Fprintln(w, describeRefOf(r, ps.Blocks, ps.ApproxTokens()))
	var buf []byte
	i := 0
	ps.Each(func(b *turndiff.Block) {
		buf = appendShownBlock(buf[:0], i, b, "")
		w.Write(buf)
		i++
	})
	writeLosses(w, ps.Losses)
}

// appendShownBlock appends one block as payload show prints it: a heading
// line (number, key, role, size and origin) and the text, indented.
func appendShownBlock(buf []byte, i int, b *turndiff.Block, origin string) []byte {
	buf = append(buf, "\n#"...)
	buf = strconv.AppendInt(buf, int64(i+1), 10)
	buf = append(buf, ' ')
	buf = append(buf, sanitize.Line(b.Key)...)
	buf = append(buf, " · "...)
	buf = append(buf, sanitize.Line(b.Role)...)
	buf = append(buf, " · "...)
	if i18n.Current() == i18n.English { // the fast path of the key below: one block at a time, no formatting
		buf = appendCount(buf, b.Chars)
		buf = append(buf, " chars · ~"...) //i18n:raw the English of "%s chars · ~%s tokens"
		buf = appendCount(buf, b.ApproxTokens)
		buf = append(buf, " tokens"...)
	} else {
		buf = append(buf, i18n.T("%s chars · ~%s tokens", string(appendCount(nil, b.Chars)), string(appendCount(nil, b.ApproxTokens)))...)
	}
	buf = append(buf, origin...)
	buf = append(buf, '\n')
	return append(appendIndented(buf, sanitize.Text(b.Text), "  "), '\n')
}

// appendIndented appends s with prefix before each of its lines, or
// prefix and "(empty)" for an empty s.
func appendIndented(buf []byte, s, prefix string) []byte {
	if s == "" {
		return append(append(buf, prefix...), i18n.T("(empty)")...)
	}
	for {
		buf = append(buf, prefix...)
		k := strings.IndexByte(s, '\n')
		if k < 0 {
			return append(buf, s...)
		}
		buf = append(buf, s[:k+1]...)
		s = s[k+1:]
	}
}

// appendCount appends count(n): the number with thousands separated by
// commas.
func appendCount(buf []byte, n int) []byte {
	if n < 0 {
		return strconv.AppendInt(buf, int64(n), 10)
	}
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, c)
	}
	return buf
}

// writeLosses lists what the display rendering redacted.
func writeLosses(w io.Writer, losses []turndiff.Loss) {
	if len(losses) == 0 {
		return
	}
	fmt.Fprintln(w, i18n.T("\nredacted by the display rendering (not in the file):"))
	for _, l := range losses {
		fmt.Fprintf(w, "  %s\n", describeLoss(l))
	}
}

// writeRecovery says what a capture that is not JSON still holds.
func writeRecovery(w io.Writer, f *session.PayloadFile) {
	rec := f.Recovery
	switch {
	case rec.Noted:
		fmt.Fprint(w, i18n.T("cut by pi-forge after %s characters: the file is not JSON; the diff sees one payload-text block\n", count(float64(turndiff.MaxDisplayChars))))
	default:
		fmt.Fprintln(w, i18n.T("not valid JSON: the diff sees one payload-text block"))
	}
	if rec.SyntaxError != "" {
		fmt.Fprint(w, i18n.T("  reading stopped: %s\n", sanitize.Line(rec.SyntaxError)))
	}
	if len(rec.Fields) > 0 {
		fmt.Fprint(w, i18n.T("  recovered whole: %s\n", sanitize.Line(strings.Join(rec.Fields, ", "))))
	}
	if rec.CutField == "messages" || rec.Messages > 0 {
		fmt.Fprint(w, i18n.T("  messages recovered whole: %d\n", rec.Messages))
	}
	if cm := rec.CutMessage; cm != nil {
		role := cm.Role
		if role == "" {
			role = i18n.T("role not read")
		}
		fmt.Fprint(w, i18n.T("  cut: message %d (%s) after %s characters of text; the rest of it is lost\n", cm.Index+1, sanitize.Line(role), count(float64(cm.TextChars))))
	} else if rec.CutField != "" {
		fmt.Fprint(w, i18n.T("  cut: field %q; the rest of it is lost\n", sanitize.Line(rec.CutField)))
	}
	if rec.Noted {
		fmt.Fprintln(w, i18n.T("  lost: everything after the cut — any later messages and any request fields after them (their number is not recorded)"))
	}
}

func describeLoss(l turndiff.Loss) string {
	where := sanitize.Line(l.Path)
	if where == "" {
		where = i18n.T("(top level)")
	}
	switch l.Kind {
	case turndiff.LossSecret:
		return i18n.T("secret value redacted at %s", where)
	case turndiff.LossDepth:
		return i18n.T("value nested deeper than 8 levels dropped at %s", where)
	case turndiff.LossItems:
		return i18n.T("%d array item(s) after the 80th dropped at %s", l.Count, where)
	case turndiff.LossKeys:
		return i18n.T("keys after the 120th dropped at %s", where)
	case turndiff.LossImage:
		return i18n.T("image data dropped at %s", where)
	case turndiff.LossBase64:
		return i18n.T("base64-like data (%s chars) dropped at %s", count(float64(l.Count)), where)
	case turndiff.LossString:
		return i18n.T("string cut from %s to 12,000 chars at %s", count(float64(l.Count)), where)
	}
	return i18n.T("%s at %s", l.Kind, where)
}

func describeCacheUse(u *turndiff.CacheUse) string {
	s := i18n.T("cache read %s · cache write %s · uncached input %s", count(u.CacheRead), count(u.CacheWrite), count(u.Input))
	if u.HasRatio {
		s += i18n.T(" · hit %.1f%%", 100*u.HitRatio)
	} else if !u.Reported {
		s += i18n.T(" · this model reports no cache figures")
	}
	return s
}

// writeDiff prints a diff for humans: the block list with the cache
// boundary as a rule, totals, the cause, recorded cache use of the later
// request next to the predicted prefix, and line diffs of modified blocks.
func writeDiff(w io.Writer, a, b *replay.Resolved, d *turndiff.Diff, cause *turndiff.Cause, lines bool) {
	fmt.Fprintf(w, "A  %s\nB  %s\n\n", describeRef(a), describeRef(b))
	for i := range d.Blocks {
		if i == d.BoundaryRow {
			fmt.Fprintln(w, boundaryRule(d))
		}
		blk := &d.Blocks[i]
		x := blockSide(blk)
		var before, after int
		if blk.Before != nil {
			before = blk.Before.ApproxTokens
		}
		if blk.After != nil {
			after = blk.After.ApproxTokens
		}
		delta := ""
		if blk.TokenDelta != 0 {
			delta = fmt.Sprintf("%+d", blk.TokenDelta)
		}
		origin := ""
		if o, ok := turndiff.RowOrigin(d, i, &a.Turn, &b.Turn); ok {
			origin = " · " + sanitize.Line(turndiff.OriginLabel(o))
		}
		line := fmt.Sprintf("  %s %-40s %-10s %7s → %-7s %-6s%s", statusGlyph(blk.Status), sanitize.Clip(x.Key, 40), sanitize.Clip(x.Role, 10),
			count(float64(before)), count(float64(after)), delta, origin)
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	if d.BoundaryRow == len(d.Blocks) {
		fmt.Fprintln(w, boundaryRule(d))
	}
	s := d.Summary
	fmt.Fprint(w, i18n.T("\n%d same · %d modified · %d added · %d removed · %+d tokens (+%d / −%d)\n",
		s.SameBlocks, s.ModifiedBlocks, s.AddedBlocks, s.RemovedBlocks, d.DeltaTokens, s.AddedTokens, s.RemovedTokens))
	if cause != nil {
		fmt.Fprint(w, i18n.T("cause: %s\n", describeCause(cause)))
	}
	if q := b.Request; q != nil && q.Usage != nil {
		uses, _ := turndiff.CacheSeries([]turndiff.Usage{*q.Usage})
		fmt.Fprint(w, i18n.T("B recorded: %s · predicted cached prefix ~%s tokens\n", describeCacheUse(&uses[0]), count(float64(d.PrefixTokens))))
	}
	if !lines {
		return
	}
	for i := range d.Blocks {
		blk := &d.Blocks[i]
		if blk.Status != turndiff.StatusModified {
			continue
		}
		fmt.Fprintf(w, "\n── ~ %s ──\n", sanitize.Line(blk.After.Key))
		if blk.Before.Text == blk.After.Text {
			before, after := turndiff.WireText(blk.Before), turndiff.WireText(blk.After)
			if before == after {
				fmt.Fprintln(w, i18n.T("same text; the blocks differ in request fields not recorded here"))
				continue
			}
			fmt.Fprintln(w, i18n.T("same text; its request fields differ (the JSON sent):"))
			writeLineDiff(w, before, after)
			continue
		}
		writeLineDiff(w, blk.Before.Text, blk.After.Text)
	}
}

func boundaryRule(d *turndiff.Diff) string {
	return i18n.T("  ──── cache boundary · ~%s tokens cached (%.1f%%) ────", count(float64(d.PrefixTokens)), 100*d.PrefixRatio)
}

func blockSide(b *turndiff.DiffBlock) *turndiff.Block {
	if b.After != nil {
		return b.After
	}
	return b.Before
}

func statusGlyph(status string) string {
	s, err := diffview.ParseStatus(status)
	if err != nil {
		return "?"
	}
	return s.Glyph()
}

// describeCause is a cause for humans: its detail and where to look.
func describeCause(c *turndiff.Cause) string {
	parts := []string{sanitize.Line(c.Detail)}
	for _, f := range []struct{ label, v string }{
		{"block", c.Block}, {"entry", c.EntryID}, {"preset", c.PresetID}, {"item", c.ItemID},
		{"capability", c.CapabilityID}, {"rule", c.RuleID},
	} {
		if f.v != "" {
			parts = append(parts, f.label+" "+sanitize.Line(f.v))
		}
	}
	return parts[0] + " (" + strings.Join(parts[1:], ", ") + ")"
}

// writeLineDiff prints a unified line diff with lineContext lines of
// context, git style, using the diff view's line diff (go-diff).
func writeLineDiff(w io.Writer, before, after string) {
	ld := diffview.NewLineDiff(before, after)
	all := ld.Lines()
	keep := make([]bool, len(all))
	for i, l := range all {
		if l.Kind == diffview.LineEqual {
			continue
		}
		for k := max(0, i-lineContext); k <= min(len(all)-1, i+lineContext); k++ {
			keep[k] = true
		}
	}
	for i := 0; i < len(all); {
		if !keep[i] {
			i++
			continue
		}
		j := i
		for j < len(all) && keep[j] {
			j++
		}
		oldStart, newStart, oldN, newN := 0, 0, 0, 0
		for _, l := range all[i:j] {
			if l.OldNo > 0 {
				if oldStart == 0 {
					oldStart = l.OldNo
				}
				oldN++
			}
			if l.NewNo > 0 {
				if newStart == 0 {
					newStart = l.NewNo
				}
				newN++
			}
		}
		fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", oldStart, oldN, newStart, newN)
		for _, l := range all[i:j] {
			sign := " "
			switch l.Kind {
			case diffview.LineDelete:
				sign = "-"
			case diffview.LineInsert:
				sign = "+"
			}
			fmt.Fprintf(w, "%s%s\n", sign, sanitize.Line(l.Text))
			if l.NoNewline {
				fmt.Fprintln(w, `\ No newline at end of file`) //i18n:raw the unified diff format's marker
			}
		}
		i = j
	}
}
