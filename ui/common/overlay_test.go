package common

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// overlayRef is the whole-screen composition OverlayAt is held to: the
// dimmed screen and the box composed on one canvas of width×height.
func overlayRef(screen, box string, width, height, x, y int) string {
	if width <= 0 || height <= 0 {
		return screen
	}
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	if bw > width || bh > height {
		box = lipgloss.NewStyle().MaxWidth(width).MaxHeight(height).Render(box)
		bw, bh = lipgloss.Width(box), lipgloss.Height(box)
	}
	if x < 0 {
		x = (width - bw) / 2
	}
	if y < 0 {
		y = (height - bh) / 2
	}
	x, y = Clamp(x, 0, max(0, width-bw)), Clamp(y, 0, max(0, height-bh))
	canvas := lipgloss.NewCanvas(width, height)
	canvas.Compose(lipgloss.NewCompositor(lipgloss.NewLayer(Dim(screen)), lipgloss.NewLayer(box).X(x).Y(y).Z(1)))
	return Fit(strings.Split(canvas.Render(), "\n"), width, height)
}

// Issue 21: OverlayAt composes only the rows its box covers; the screen
// it gives is byte for byte the whole-screen composition's, over styled
// screens with wide and combining characters, lines too short and too
// long, boxes anywhere (centred, clamped, larger than the screen).
func TestOverlayAtIsTheWholeScreenComposition(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 7))
	words := []string{"entry", "日本語", "é", "e\u0301", "│", "┏━┓", "🙂", "tab\there", "  ", "x"}
	styles := []lipgloss.Style{lipgloss.NewStyle(), lipgloss.NewStyle().Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#ff8800")).Background(lipgloss.Color("#202020")),
		lipgloss.NewStyle().Reverse(true).Underline(true)}
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(styles[rng.IntN(len(styles))].Render(words[rng.IntN(len(words))]))
			b.WriteString(" ")
		}
		return b.String()
	}
	for round := 0; round < 300; round++ {
		width, height := 1+rng.IntN(170), 1+rng.IntN(50)
		var lines []string
		for i := 0; i < rng.IntN(height+3); i++ {
			lines = append(lines, text(rng.IntN(width/3+3)))
		}
		screen := strings.Join(lines, "\n")
		var box []string
		for i := 0; i < 1+rng.IntN(height+2); i++ {
			box = append(box, text(1+rng.IntN(8)))
		}
		boxed := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Render(strings.Join(box, "\n"))
		x, y := rng.IntN(width+4)-2, rng.IntN(height+4)-2
		want := overlayRef(screen, boxed, width, height, x, y)
		if got := OverlayAt(screen, boxed, width, height, x, y); got != want {
			t.Fatalf("round %d (%dx%d, box at %d,%d): differs from the whole-screen composition\n--- want\n%q\n--- got\n%q",
				round, width, height, x, y, want, got)
		}
	}
}

// BenchmarkOverlayAt is a dialog over a full 160×48 screen.
func BenchmarkOverlayAt(b *testing.B) {
	var lines []string
	for i := 0; i < 48; i++ {
		lines = append(lines, lipgloss.NewStyle().Foreground(lipgloss.Color("#88ccff")).Render(fmt.Sprintf("%-160.160s", strings.Repeat(fmt.Sprintf("row %d │ ", i), 20))))
	}
	screen := strings.Join(lines, "\n")
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Width(104).Height(14).Render("Go to or run")
	for b.Loop() {
		_ = OverlayAt(screen, box, 160, 48, -1, 3)
	}
}

func BenchmarkOverlayRef(b *testing.B) {
	var lines []string
	for i := 0; i < 48; i++ {
		lines = append(lines, lipgloss.NewStyle().Foreground(lipgloss.Color("#88ccff")).Render(fmt.Sprintf("%-160.160s", strings.Repeat(fmt.Sprintf("row %d │ ", i), 20))))
	}
	screen := strings.Join(lines, "\n")
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Width(104).Height(14).Render("Go to or run")
	for b.Loop() {
		_ = overlayRef(screen, box, 160, 48, -1, 3)
	}
}
