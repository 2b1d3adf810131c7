package ui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// View draws the help's scroll but never moves it: ↓ past the end is
// clamped when the key arrives (Update), so two Views in a row see the
// same offset, and the first ↑ after the end moves the list at once.
func TestHelpScrollIsClampedInUpdateNotView(t *testing.T) {
	m := demoLikeModel(80, 24, true)
	press(t, m, "3", "?")
	for range 60 {
		press(t, m, "down")
	}
	end := m.helpOffset
	if end == 0 || end >= 60 {
		t.Fatalf("↓ past the end left the offset at %d; it is clamped to the last page", end)
	}
	first := ansi.Strip(m.View().Content)
	if m.helpOffset != end {
		t.Fatalf("View moved the help from %d to %d", end, m.helpOffset)
	}
	if second := ansi.Strip(m.View().Content); second != first || m.helpOffset != end {
		t.Fatal("two Views in a row drew different helps")
	}
	press(t, m, "up")
	if m.helpOffset != end-1 {
		t.Fatalf("↑ at the end moved to %d, want %d", m.helpOffset, end-1)
	}
	m.View()
	press(t, m, "pgdown")
	if m.helpOffset != end {
		t.Fatalf("pgdown to the end: %d, want %d", m.helpOffset, end)
	}
}
