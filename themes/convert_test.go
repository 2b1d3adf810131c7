package themes

import (
	"image/color"
	"math"
	"reflect"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// family is a hue family: what a user still recognises when a terminal
// shows a colour with fewer bits (a red stays red, a grey stays grey).
type family string

const (
	neutral family = "neutral"
	red     family = "red"
	yellow  family = "yellow" // yellow, amber and orange
	green   family = "green"
	blue    family = "blue" // blue and cyan
	purple  family = "purple"
)

// roleRule is what a palette role must keep after conversion: its hue
// family and its contrast with another role (usually the background).
type roleRule struct {
	families []family
	against  string  // the role it is read on ("" = none: a background)
	contrast float64 // minimum WCAG contrast ratio with against
}

// roleRules is the semantic contract of every palette role. Body text
// needs 4.5:1, coloured text and badges 3:1, dim text 2:1, borders only
// need to be seen.
var roleRules = map[string]roleRule{
	"Base": {families: []family{neutral}}, "Surface": {families: []family{neutral}}, "Overlay": {families: []family{neutral}},
	"Text": {[]family{neutral}, "Base", 4.5}, "Subtle": {[]family{neutral}, "Base", 3}, "Muted": {[]family{neutral}, "Base", 2},
	"Primary": {[]family{blue}, "Base", 3}, "Secondary": {[]family{purple}, "Base", 3},
	"Accent": {[]family{yellow}, "Base", 3}, "Highlight": {[]family{yellow, red}, "Base", 3},
	"Border": {[]family{neutral}, "Base", 1.2}, "BorderFocus": {[]family{blue}, "Base", 3},
	"SelectionBg": {families: []family{blue, neutral}}, "SelectionF": {[]family{neutral}, "SelectionBg", 4.5},
	"Success": {[]family{green}, "Base", 3}, "Warning": {[]family{yellow}, "Base", 3},
	"Danger": {[]family{red}, "Base", 3}, "Info": {[]family{blue}, "Base", 3},
	"DiffAdd": {[]family{green}, "Base", 3}, "DiffDel": {[]family{red}, "Base", 3},
	"DiffAddBg": {families: []family{green, neutral}}, "DiffDelBg": {families: []family{red, neutral}},
	"DiffHunk": {[]family{blue}, "Base", 3}, "DiffContext": {[]family{neutral}, "Base", 2},
	"RoleUser": {[]family{blue}, "Base", 3}, "RoleAssistant": {[]family{purple}, "Base", 3},
	"RoleTool": {[]family{yellow}, "Base", 3}, "RoleSystem": {[]family{green}, "Base", 3},
	"Thinking": {[]family{neutral, blue, purple}, "Base", 2}, "Code": {[]family{neutral, blue}, "Base", 4.5},
	"ScopeProject": {[]family{green}, "Base", 3}, "ScopeGlobal": {[]family{blue}, "Base", 3},
	"Link": {[]family{blue}, "Base", 3},
}

// ansi16Contrast caps the contrast asked of coloured roles in 16 colours:
// the nominal xterm blue on black is 2.4:1, and the terminal's own palette
// decides the rest. Body text keeps its full requirement.
const ansi16Contrast = 2

// TestPaletteSurvivesColourConversion converts every role of the dark and
// light palettes to 256 and to 16 colours as the terminal renderer does
// (colorprofile) and checks that each keeps its hue family and contrast:
// the light theme's error red once became grey on 256-colour terminals.
func TestPaletteSurvivesColourConversion(t *testing.T) {
	profiles := []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI}
	for _, p := range []Palette{DarkPalette(), LightPalette()} {
		v := reflect.ValueOf(p)
		role := func(name string) color.Color { return v.FieldByName(name).Interface().(color.Color) }
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if name == "Name" {
				continue
			}
			rule, ok := roleRules[name]
			if !ok {
				t.Errorf("palette role %s has no rule in roleRules: say what it must keep", name)
				continue
			}
			for _, prof := range profiles {
				got := prof.Convert(role(name))
				if f := hueFamily(got); !hasFamily(rule.families, f) {
					t.Errorf("%s %s in %s: %s is %s, want %v", p.Name, name, prof, hexString(got), f, rule.families)
				}
				if rule.against == "" {
					continue
				}
				want := rule.contrast
				if prof == colorprofile.ANSI && name != "Text" && name != "SelectionF" {
					want = min(want, ansi16Contrast)
				}
				bg := prof.Convert(role(rule.against))
				if c := contrastRatio(got, bg); c < want {
					t.Errorf("%s %s in %s: %s on %s %s has contrast %.2f, want ≥ %.1f",
						p.Name, name, prof, hexString(got), rule.against, hexString(bg), c, want)
				}
			}
		}
	}
}

// TestHueFamilies pins the classifier the conversion test relies on.
func TestHueFamilies(t *testing.T) {
	for hex, want := range map[string]family{
		"#808080": neutral, "#5f5f87": neutral, "#af0000": red, "#ff0000": red, "#878700": yellow,
		"#d75f00": yellow, "#008000": green, "#000080": blue, "#008080": blue, "#800080": purple,
	} {
		if got := hueFamily(hex2(hex)); got != want {
			t.Errorf("hueFamily(%s) = %s, want %s", hex, got, want)
		}
	}
	if c := contrastRatio(hex2("#000000"), hex2("#ffffff")); math.Abs(c-21) > 0.01 {
		t.Errorf("black on white = %.2f, want 21", c)
	}
	if ansi.Convert256(hex2("#af0000")) != 124 {
		t.Error("an exact xterm colour converts to its own index")
	}
}

func hex2(s string) color.Color { return ansi.XParseColor("#" + s[1:]) }

func hasFamily(fs []family, f family) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

func rgb(c color.Color) (r, g, b float64) {
	R, G, B, _ := c.RGBA()
	return float64(R) / 0xffff, float64(G) / 0xffff, float64(B) / 0xffff
}

// hueFamily classifies a colour: greys (little chroma) are neutral, the
// rest go by hue angle.
func hueFamily(c color.Color) family {
	r, g, b := rgb(c)
	hi, lo := max(r, g, b), min(r, g, b)
	chroma := hi - lo
	if chroma < 0.2 {
		return neutral
	}
	var h float64
	switch hi {
	case r:
		h = math.Mod((g-b)/chroma, 6)
	case g:
		h = (b-r)/chroma + 2
	default:
		h = (r-g)/chroma + 4
	}
	h *= 60
	if h < 0 {
		h += 360
	}
	switch {
	case h < 18 || h >= 330:
		return red
	case h < 70:
		return yellow
	case h < 165:
		return green
	case h < 255:
		return blue
	}
	return purple
}

// contrastRatio is the WCAG 2 contrast ratio of two colours.
func contrastRatio(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c color.Color) float64 {
	lin := func(v float64) float64 {
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	r, g, b := rgb(c)
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func hexString(c color.Color) string {
	if c == nil {
		return "<none>"
	}
	return hexOf(c)
}
