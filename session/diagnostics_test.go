package session

import (
	"strings"
	"testing"
)

func TestSkippedListNamesEveryLineAndWhy(t *testing.T) {
	data := strings.Join([]string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}`,
		`{not json`,
		``,
		`null`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[]}}`,
	}, "\n")
	s, err := Read(strings.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines, more := s.Diagnostics.SkippedList()
	want := []SkippedLine{{3, ReasonMalformed}, {4, ReasonBlank}, {5, ReasonFalsy}}
	if more != 0 || len(lines) != len(want) {
		t.Fatalf("skipped %v (+%d), want %v", lines, more, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %v, want %v", i, lines[i], want[i])
		}
	}
	if s.Diagnostics.SkippedLines() != 3 {
		t.Fatalf("SkippedLines = %d", s.Diagnostics.SkippedLines())
	}
	notes := s.Diagnostics.Notes()
	if len(notes) != 1 || !strings.Contains(notes[0], "no newline") {
		t.Fatalf("the missing final newline is a note: %v", notes)
	}
}

func TestSkippedListCountsBeyondTheNumberedOnes(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n")
	for range 150 {
		b.WriteString("null\n")
	}
	s, err := Read(strings.NewReader(b.String()), Options{ChunkBytes: 64, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	lines, more := s.Diagnostics.SkippedList()
	if len(lines) != 100 || more != 50 || lines[0].Line != 2 || lines[99].Line != 101 {
		t.Fatalf("the first 100 are numbered in order, 50 more counted: %d (+%d) %v…", len(lines), more, lines[:1])
	}
}

func TestTitleRule(t *testing.T) {
	for _, c := range []struct{ name, first, id, want string }{
		{"Invoice fix", "please fix", "0193", "Invoice fix"},
		{"", "please\nfix the \x1b[31mbug", "0193", "please fix the bug"},
		{"  ", "", "0193", "0193"},
	} {
		if got := Title(c.name, c.first, c.id); got != c.want {
			t.Errorf("Title(%q, %q, %q) = %q, want %q", c.name, c.first, c.id, got, c.want)
		}
	}
	long := strings.Repeat("word ", 60)
	if got := Title("", long, "x"); len([]rune(got)) > TitleMax {
		t.Fatalf("titles are clipped to %d runes, got %d", TitleMax, len([]rune(got)))
	}
	s, err := Read(strings.NewReader(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"Fix rounding"}]}}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Title() != "Fix rounding" {
		t.Fatalf("an unnamed session is called by its first user message, got %q", s.Title())
	}
}
