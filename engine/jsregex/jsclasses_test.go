package jsregex

import "testing"

func TestSpaceSet(t *testing.T) {
	re, _ := Compile(`\s`, "g")
	js := map[rune]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true, 0xa0: true, 0x1680: true, 0x2028: true, 0x2029: true, 0x202f: true, 0x205f: true, 0x3000: true, 0xfeff: true}
	for r := rune(0x2000); r <= 0x200a; r++ {
		js[r] = true
	}
	re2, _ := Compile(`\w`, "g")
	re3, _ := Compile(`\d`, "g")
	for r := rune(0); r < 0x10000; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		m, _ := re.execAt([]rune{r}, 0, nil)
		if (m != nil) != js[r] {
			t.Errorf("\\s %U js=%v", r, js[r])
		}
		w := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		m, _ = re2.execAt([]rune{r}, 0, nil)
		if (m != nil) != w {
			t.Errorf("\\w %U", r)
		}
		m, _ = re3.execAt([]rune{r}, 0, nil)
		if (m != nil) != (r >= '0' && r <= '9') {
			t.Errorf("\\d %U", r)
		}
	}
}
