package preset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/internal/fixtures"
)

func FuzzParsePreset(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","items":[]}`,
		`[]`, `{`, `null`, `{"id":1e999}`,
		`{"schemaVersion":2,"id":"x","parameters":{"a":1e400,"1":[{}]},"items":[5,{"kind":"slot","id":3,"slot":""}]}`,
		`{"id":"x","tools":{"allow":["a","*"],"deny":["b"],"initial":["a"," a",7]},"skills":[],"capabilities":[{"ref":"global:q","overrides":{"tools":{"add":["\u0000"]}}},{"ref":"q"}],"items":[{"kind":"block","id":"b","content":"\ud800"}]}`,
		`{"id":"r","regex":{"schemaVersion":2,"rules":[{"id":"a","stage":"compiled","pattern":"(?<n>x)\\k<n>","flags":"gu","effect":"finalize","roles":["x"]},3]},"items":[]}`,
	} {
		f.Add([]byte(seed), "seed.json")
	}
	for _, name := range []string{"testdata/full-canonical.json", "testdata/messy.json"} {
		if raw, err := os.ReadFile(name); err == nil {
			f.Add(raw, filepath.Base(name))
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte, basename string) {
		if stem := stripJSONExt(basename); jsonv.TrimJS(stem) != stem {
			// pi-forge trims ids but not the basename fallback, so such a
			// name legitimately changes on the second round trip.
			basename = "fuzz.json"
		}
		stack, diags := Parse(raw, basename)
		if stack == nil || stack.Items == nil {
			t.Fatal("Parse returned no stack")
		}
		seen := map[Diagnostic]bool{}
		for _, x := range diags {
			if seen[x] {
				t.Fatalf("duplicate diagnostic %+v", x)
			}
			seen[x] = true
		}
		out := Serialize(stack)
		again, diags2 := Parse(out, basename)
		for _, x := range diags2 {
			if strings.HasPrefix(x.Message, "Failed to parse JSON") {
				t.Fatalf("serialized output does not re-parse: %v\n%s", x.Message, out)
			}
		}
		if !bytes.Equal(Serialize(again), out) {
			t.Fatalf("serialization not idempotent:\n%s\n---\n%s", out, Serialize(again))
		}
	})
}

func FuzzRegexRule(f *testing.F) {
	f.Add(`(\w+)@(\w+)`, "g", "$2 at $1 $<x> $$ $0 $&", "mail a@b and c@d", false, 0)
	f.Add(`(?<y>\d+)`, "gu", "[$<y>]$`$'", "x12y😀34", true, 3)
	f.Add(`^|$`, "gm", "#", "a\nb\r\nc", false, 0)
	f.Add(`[^]|[]|\b|\B|.`, "gis", "$99$10$1", "Aé\u2028", true, 2)
	f.Add(`a{2,}?|\cJ|\x4|\u{41}|\k<a>`, "", "", "aaa\n", false, 0)
	f.Fuzz(func(t *testing.T, pattern, flags, replace, text string, trim bool, maxChars int) {
		saved := jsregex.MatchTimeout
		jsregex.MatchTimeout = 200 * time.Millisecond
		defer func() { jsregex.MatchTimeout = saved }()
		re, err := jsregex.Compile(pattern, flags)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid") {
				t.Fatalf("unexpected error form: %v", err)
			}
			return
		}
		rule := &CompiledRule{ID: "f", Regexp: re, Replace: replace, MaxChars: maxChars % 64, MinDepth: -1, MaxDepth: -1}
		if trim {
			rule.TrimStrings = []string{"a", ""}
		}
		res, err := rule.Transform(text)
		if err != nil {
			return // match timeout
		}
		if res.Matches < 0 || (!re.Global && res.Matches > 1) {
			t.Fatalf("matches = %d (global %v)", res.Matches, re.Global)
		}
		if res.Matches == 0 && res.Text != text {
			t.Fatalf("text changed without a match: %q → %q", text, res.Text)
		}
		if res.Changed != (res.Text != text) {
			t.Fatal("Changed flag disagrees with the text")
		}
	})
}

func BenchmarkParsePreset(b *testing.B) {
	path := "testdata/full-canonical.json"
	if shared, ok := fixtures.Optional(b, "pi-forge/examples/default-prompt-stack.json"); ok {
		path = shared
	}
	raw := readTestdata(b, path)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Parse(raw, "default-prompt-stack.json"); len(diags) > 5 {
			b.Fatal(diags)
		}
	}
}

func BenchmarkSerializePreset(b *testing.B) {
	stack, _ := Parse(readTestdata(b, "testdata/full-canonical.json"), "full-canonical.json")
	b.ReportAllocs()
	for b.Loop() {
		_ = Serialize(stack)
	}
}
