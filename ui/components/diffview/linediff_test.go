package diffview

import (
	"fmt"
	"strings"
	"testing"
)

// kinds renders a diff's lines as a compact string: "=a -b +c".
func kinds(d *LineDiff) string {
	var parts []string
	for _, l := range d.Lines() {
		sign := map[LineKind]string{LineEqual: "=", LineDelete: "-", LineInsert: "+"}[l.Kind]
		parts = append(parts, sign+l.Text)
	}
	return strings.Join(parts, " ")
}

// rowNotes lists the hunk headers and messages of a mode's unified rows.
func rowNotes(rows []row) []string {
	var out []string
	for _, r := range rows {
		if r.kind == rowHunk || r.kind == rowMessage {
			out = append(out, r.note)
		}
	}
	return out
}

func TestLineDiffKindsAndNumbers(t *testing.T) {
	d := NewLineDiff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n")
	if got, want := kinds(d), "=a -b +B =c =d +e"; got != want {
		t.Fatalf("lines %q, want %q", got, want)
	}
	if d.Added() != 2 || d.Removed() != 1 || d.Identical() {
		t.Fatalf("added %d removed %d", d.Added(), d.Removed())
	}
	l := d.Lines()
	if l[1].OldNo != 2 || l[1].NewNo != 0 || l[2].OldNo != 0 || l[2].NewNo != 2 || l[5].NewNo != 5 {
		t.Fatalf("line numbers wrong: %+v", l)
	}
}

func TestLineDiffEmptySides(t *testing.T) {
	added := NewLineDiff("", "x\ny")
	if kinds(added) != "+x +y" || added.Removed() != 0 {
		t.Fatalf("added block: %q", kinds(added))
	}
	if got := rowNotes(added.unified[ContextChanges]); len(got) != 1 || got[0] != "@@ -0,0 +1,2 @@" {
		t.Fatalf("added block header %q", got)
	}
	removed := NewLineDiff("x\ny\n", "")
	if kinds(removed) != "-x -y" {
		t.Fatalf("removed block: %q", kinds(removed))
	}
	for _, l := range removed.Lines() {
		if l.NoNewline {
			t.Fatal("an empty side has no last line to mark")
		}
	}
	both := NewLineDiff("", "")
	if len(both.Lines()) != 0 || rowNotes(both.unified[ContextAll])[0] != "both sides are empty" {
		t.Fatalf("empty diff: %+v", both.unified[ContextAll])
	}
}

func TestLineDiffIdenticalTexts(t *testing.T) {
	d := NewLineDiff("one\ntwo\n", "one\ntwo\n")
	if !d.Identical() {
		t.Fatal("identical texts must report it")
	}
	if got := rowNotes(d.unified[ContextThree]); len(got) != 1 || !strings.Contains(got[0], "no line changes (2 lines identical)") {
		t.Fatalf("three-line mode of identical texts: %q", got)
	}
	all := d.unified[ContextAll]
	if len(all) != 3 || all[0].kind != rowHunk || all[0].note != "@@ -1,2 +1,2 @@" {
		t.Fatalf("all mode shows the whole text under one header: %+v", all)
	}
}

func TestLineDiffTrailingNewline(t *testing.T) {
	d := NewLineDiff("a\nb", "a\nb\n")
	if kinds(d) != "=a -b +b" {
		t.Fatalf("a final newline changes the last line: %q", kinds(d))
	}
	l := d.Lines()
	if !l[1].NoNewline || l[2].NoNewline {
		t.Fatalf("only the side without a final newline is marked: %+v", l)
	}
	var markers int
	for _, r := range d.unified[ContextChanges] {
		if r.kind == rowNoNL {
			markers++
		}
	}
	if markers != 1 {
		t.Fatalf("one no-newline marker row, got %d", markers)
	}
	// Neither side ends in a newline: nothing to mark.
	for _, l := range NewLineDiff("a\nb", "a\nc").Lines() {
		if l.NoNewline {
			t.Fatal("both sides lack the newline: no marker")
		}
	}
}

func TestLineDiffCarriageReturns(t *testing.T) {
	d := NewLineDiff("a\r\nb\r\n", "a\nb\n")
	if kinds(d) != "-a -b +a +b" {
		t.Fatalf("CRLF against LF: %q", kinds(d))
	}
	for _, l := range d.Lines() {
		if l.Kind == LineDelete && !l.CR || l.Kind == LineInsert && l.CR {
			t.Fatalf("the CRLF side is marked, the LF side not: %+v", l)
		}
	}
	same := NewLineDiff("a\r\nb\r\n", "a\r\nc\r\n")
	for _, l := range same.Lines() {
		if l.CR || strings.HasSuffix(l.Text, "\r") {
			t.Fatalf("both sides CRLF: no mark and no CR in the text: %+v", l)
		}
	}
}

func TestContextModesAndHunkHeaders(t *testing.T) {
	var before, after []string
	for i := 1; i <= 20; i++ {
		before = append(before, fmt.Sprint("line ", i))
		after = append(after, fmt.Sprint("line ", i))
	}
	after[1] = "changed 2"   // line 2
	after[16] = "changed 17" // line 17, ten unchanged lines apart
	d := NewLineDiff(strings.Join(before, "\n")+"\n", strings.Join(after, "\n")+"\n")
	if got := rowNotes(d.unified[ContextChanges]); strings.Join(got, " ") != "@@ -2 +2 @@ @@ -17 +17 @@" {
		t.Fatalf("changes-only headers %q", got)
	}
	if got := rowNotes(d.unified[ContextThree]); strings.Join(got, " ") != "@@ -1,5 +1,5 @@ @@ -14,7 +14,7 @@" {
		t.Fatalf("three-line headers %q", got)
	}
	if got := rowNotes(d.unified[ContextAll]); strings.Join(got, " ") != "@@ -1,20 +1,20 @@" {
		t.Fatalf("all-context header %q", got)
	}
	// Six unchanged lines between changes: three lines of context on each
	// side meet, so the hunks merge.
	after2 := append([]string(nil), before...)
	after2[1], after2[8] = "x", "y"
	merged := NewLineDiff(strings.Join(before, "\n"), strings.Join(after2, "\n"))
	if got := rowNotes(merged.unified[ContextThree]); len(got) != 1 {
		t.Fatalf("hunks six lines apart merge: %q", got)
	}
	// A pure insertion names the line before it on the old side.
	ins := NewLineDiff("a\nb\nc\n", "a\nb\nc\nd\ne\n")
	if got := rowNotes(ins.unified[ContextChanges]); got[0] != "@@ -3,0 +4,2 @@" {
		t.Fatalf("insertion header %q", got)
	}
}

func TestSplitPairsRemovedWithAdded(t *testing.T) {
	d := NewLineDiff("keep\nold 1\nold 2\nold 3\nkeep\n", "keep\nnew 1\nkeep\n")
	var pairs [][2]string
	for _, r := range d.split[ContextAll] {
		if r.kind != rowLine {
			continue
		}
		var p [2]string
		if r.left >= 0 {
			p[0] = d.lines[r.left].Text
		}
		if r.right >= 0 {
			p[1] = d.lines[r.right].Text
		}
		pairs = append(pairs, p)
	}
	want := [][2]string{{"keep", "keep"}, {"old 1", "new 1"}, {"old 2", ""}, {"old 3", ""}, {"keep", "keep"}}
	if len(pairs) != len(want) {
		t.Fatalf("pairs %q", pairs)
	}
	for i := range want {
		if pairs[i] != want[i] {
			t.Fatalf("pair %d = %q, want %q", i, pairs[i], want[i])
		}
	}
}

// Unified is the text y copies of a line diff: git's shape, every line
// whole, in the view's context mode.
func TestUnifiedText(t *testing.T) {
	d := NewLineDiff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nD\ne\nf\ng")
	want := "@@ -4,4 +4,4 @@\n-d\n+D\n e\n f\n-g\n+g\n\\ No newline at end of file\n"
	if got := d.Unified(ContextChanges); got == "" || !strings.Contains(got, "-d\n+D\n") {
		t.Fatalf("changes only: %q", got)
	}
	if got := d.Unified(ContextThree); !strings.HasPrefix(got, "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n") || !strings.HasSuffix(got, "+g\n\\ No newline at end of file\n") {
		t.Fatalf("three lines of context:\n%s\nwant like:\n%s", got, want)
	}
	if got := NewLineDiff("x\n", "x\n").Unified(ContextChanges); got != "no line changes (1 lines identical)\n" {
		t.Fatalf("identical: %q", got)
	}
}
