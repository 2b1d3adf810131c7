package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

func mustParse(t testing.TB, text string) any {
	t.Helper()
	v, err := jsonv.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return v
}

func TestFixtureVectors(t *testing.T) {
	doc := mustParse(t, string(fixtures.Read(t, "pi-forge/fingerprint-vectors.json"))).(*jsonv.Object)
	vectors, _ := doc.Get("vectors")
	list := vectors.([]any)
	if len(list) < 11 {
		t.Fatalf("expected at least 11 vectors, got %d", len(list))
	}
	for _, raw := range list {
		vec := raw.(*jsonv.Object)
		name, _ := vec.Get("name")
		value, _ := vec.Get("value")
		wantCanonical, _ := vec.Get("canonical")
		wantFingerprint, _ := vec.Get("fingerprint")
		t.Run(name.(string), func(t *testing.T) {
			got, err := CanonicalJSON(value)
			if err != nil {
				t.Fatal(err)
			}
			if got != wantCanonical {
				t.Errorf("canonical\n got %s\nwant %s", got, wantCanonical)
			}
			fp, err := Fingerprint(value)
			if err != nil {
				t.Fatal(err)
			}
			if fp != wantFingerprint {
				t.Errorf("fingerprint %s, want %s", fp, wantFingerprint)
			}
			if !IsFingerprint(fp) {
				t.Errorf("IsFingerprint(%s) = false", fp)
			}
		})
	}
}

func TestFixtureSourceRevisions(t *testing.T) {
	doc := mustParse(t, string(fixtures.Read(t, "pi-forge/fingerprint-vectors.json"))).(*jsonv.Object)
	revs, _ := doc.Get("sourceRevisions")
	list := revs.([]any)
	if len(list) != 3 {
		t.Fatalf("expected 3 sourceRevisions, got %d", len(list))
	}
	for _, raw := range list {
		rev := raw.(*jsonv.Object)
		file, _ := rev.Get("file")
		want, _ := rev.Get("sourceRevision")
		data := fixtures.Read(t, "pi-forge/"+file.(string))
		if got := SourceRevision(data); got != want {
			t.Errorf("%s: sourceRevision %s, want %s", file, got, want)
		}
	}
}

// TestOwnVectors checks hand-derived canonical forms; the expected
// fingerprint is recomputed independently from the expected canonical text.
func TestOwnVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/canonical.json")
	if err != nil {
		t.Fatal(err)
	}
	list := mustParse(t, string(data)).([]any)
	for _, raw := range list {
		vec := raw.(*jsonv.Object)
		name, _ := vec.Get("name")
		value, _ := vec.Get("value")
		want, _ := vec.Get("canonical")
		t.Run(name.(string), func(t *testing.T) {
			got, err := CanonicalJSON(value)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("canonical\n got %s\nwant %s", got, want)
			}
			sum := sha256.Sum256([]byte(want.(string)))
			fp, _ := Fingerprint(value)
			if fp != Prefix+hex.EncodeToString(sum[:]) {
				t.Errorf("fingerprint %s does not hash the canonical text", fp)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	inner := jsonv.NewObject()
	inner.Set("n", math.Inf(1))
	outer := jsonv.NewObject()
	outer.Set("a", []any{inner})
	if _, err := CanonicalJSON(outer); err == nil || err.Error() != "Cannot fingerprint non-finite number at $.a[0].n." {
		t.Errorf("non-finite: %v", err)
	}
	if _, err := Fingerprint(math.NaN()); err == nil || err.Error() != "Cannot fingerprint non-finite number at $." {
		t.Errorf("NaN: %v", err)
	}
	cyclic := jsonv.NewObject()
	cyclic.Set("self", cyclic)
	if _, err := CanonicalJSON(cyclic); err == nil || err.Error() != "Cannot fingerprint cyclic value at $.self." {
		t.Errorf("cycle: %v", err)
	}
	arr := make([]any, 1)
	arr[0] = arr
	if _, err := CanonicalJSON(arr); err == nil || err.Error() != "Cannot fingerprint cyclic value at $[0]." {
		t.Errorf("array cycle: %v", err)
	}
	if _, err := CanonicalJSON(struct{}{}); err == nil || !strings.Contains(err.Error(), "non-plain object at $.") {
		t.Errorf("struct: %v", err)
	}
	// The same object twice (not a cycle) is fine.
	shared := jsonv.NewObject()
	twice := []any{shared, shared}
	if got, err := CanonicalJSON(twice); err != nil || got != "[{},{}]" {
		t.Errorf("shared: %q %v", got, err)
	}
}

func TestGoValues(t *testing.T) {
	got, err := CanonicalJSON(map[string]any{"b": 1, "a": []string{"x"}, "c": -0.0})
	if err != nil || got != `{"a":["x"],"b":1,"c":0}` {
		t.Errorf("go map: %q %v", got, err)
	}
}

func TestCompareUTF16(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"a", "b", -1}, {"b", "a", 1}, {"", "", 0}, {"a", "ab", -1},
		{"\U0001F600", "\uFFFF", -1}, // surrogate 0xD83D < 0xFFFF, unlike UTF-8 byte order
		{"\uE000", "\U00010000", 1},
		{"\U00010000", "\U00010001", -1},
		{"\xed\xa0\xbd", "\U0001F600", -1}, // lone high surrogate D83D is a prefix of the pair
		{"\xed\xa0\xbd", "\xed\xa0\xbd", 0},
	}
	for _, c := range cases {
		if got := CompareUTF16(c.a, c.b); got != c.want {
			t.Errorf("CompareUTF16(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestSourceRevisionAndIsFingerprint(t *testing.T) {
	if got := SourceRevision([]byte("")); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("empty revision %s", got)
	}
	for s, want := range map[string]bool{
		Prefix + strings.Repeat("a", 64):       true,
		Prefix + strings.Repeat("A", 64):       false,
		Prefix + strings.Repeat("a", 63):       false,
		"sha256:v2:" + strings.Repeat("a", 64): false,
		strings.Repeat("a", 64):                false,
		Prefix + strings.Repeat("0", 63) + "g": false,
	} {
		if IsFingerprint(s) != want {
			t.Errorf("IsFingerprint(%q) != %v", s, want)
		}
	}
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, seed := range []string{`{}`, `[1,2,{"b":1,"a":[null,true]}]`, `"\ud800x"`, `{"😀":1,"\uffff":2}`, `1e400`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonv.Parse([]byte(text))
		if err != nil {
			return
		}
		canonical, err := CanonicalJSON(v)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Cannot fingerprint non-finite number at ") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		// Canonical JSON is valid JSON and a fixed point.
		again, err := jsonv.Parse([]byte(canonical))
		if err != nil {
			t.Fatalf("canonical %q does not parse: %v", canonical, err)
		}
		twice, err := CanonicalJSON(again)
		if err != nil || twice != canonical {
			t.Fatalf("not a fixed point: %q vs %q (%v)", canonical, twice, err)
		}
	})
}
