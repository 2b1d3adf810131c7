package themes

import (
	"testing"

	"charm.land/lipgloss/v2"
)

func TestParseAndResolveModes(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "auto": Auto, "dark": Dark, "light": Light} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseMode("sepia"); err == nil {
		t.Error("unknown themes must be rejected")
	}
	if Auto.Resolve(false) != Light || Auto.Resolve(true) != Dark || Dark.Resolve(false) != Dark {
		t.Error("auto follows the terminal; explicit modes ignore it")
	}
}

func TestNoColorEnvironment(t *testing.T) {
	if !NoColorRequested(func(string) string { return "1" }) || NoColorRequested(func(string) string { return "" }) {
		t.Fatal("NO_COLOR means present and non-empty")
	}
	st := For(Dark, true, true)
	if st.Palette.Name != "mono" {
		t.Fatalf("palette %s", st.Palette.Name)
	}
	if _, ok := st.Palette.Primary.(lipgloss.NoColor); !ok {
		t.Fatal("the mono palette must carry no colours")
	}
	if md := st.Markdown(); md.Document.Color != nil {
		t.Fatal("markdown under NO_COLOR must not set colours")
	}
}

func TestMarkdownStyleUsesThePalette(t *testing.T) {
	st := For(Light, false, false)
	md := st.Markdown()
	if md.Link.Color == nil || *md.Link.Color != hexOf(LightPalette().Link) {
		t.Fatalf("links must use the palette's link colour, got %v", md.Link.Color)
	}
	again := For(Dark, true, false).Markdown()
	if *again.Link.Color == *md.Link.Color {
		t.Fatal("dark and light markdown styles must differ")
	}
	if hexOf(lipgloss.Color("#0a0b0c")) != "#0a0b0c" {
		t.Fatal("hexOf must round-trip #rrggbb")
	}
}
