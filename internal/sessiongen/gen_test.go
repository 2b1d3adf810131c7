package sessiongen

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestDeterministicAndValidJSONL(t *testing.T) {
	var a, b, c bytes.Buffer
	sa, err := Write(&a, Config{TargetBytes: 1 << 20, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(&b, Config{TargetBytes: 1 << 20, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(&c, Config{TargetBytes: 1 << 20, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatal("same seed must give the same bytes, another seed different bytes")
	}
	if sa.Bytes != int64(a.Len()) || sa.Bytes < 1<<20 {
		t.Errorf("stats bytes %d, buffer %d", sa.Bytes, a.Len())
	}
	lines := bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != sa.Entries+1 {
		t.Errorf("%d lines for %d entries + header", len(lines), sa.Entries)
	}
	types := map[string]int{}
	for i, l := range lines {
		var v struct{ Type string }
		if err := json.Unmarshal(l, &v); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		types[v.Type]++
	}
	for _, typ := range []string{"session", "message", "compaction", "branch_summary", "label", "custom", "custom_message",
		"usage", "context_edit", "session_info", "model_change", "thinking_level_change"} {
		if types[typ] == 0 {
			t.Errorf("no %s entries generated", typ)
		}
	}
}

func TestShapes(t *testing.T) {
	var few, small bytes.Buffer
	sf, err := Write(&few, Config{TargetBytes: 4 << 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := Write(&small, Config{TargetBytes: 4 << 20, Seed: 3, Shape: ManySmall, ID: "s-2", Cwd: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	// 100 MB: ~21-26k entries few-large, 90k-200k many-small.
	if per := float64(sf.Entries) / 4; per < 150 || per > 300 {
		t.Errorf("few-large: %d entries in 4 MiB", sf.Entries)
	}
	if per := float64(ss.Entries) / 4; per < 900 || per > 2000 {
		t.Errorf("many-small: %d entries in 4 MiB", ss.Entries)
	}
	if !bytes.Contains(small.Bytes()[:200], []byte(`"id":"s-2"`)) || !bytes.Contains(small.Bytes()[:200], []byte(`"cwd":"/w"`)) {
		t.Errorf("header %q", small.Bytes()[:200])
	}
	if sf.MidID == "" || !bytes.Contains(few.Bytes(), []byte(`"id":"`+sf.MidID+`"`)) {
		t.Errorf("mid id %q", sf.MidID)
	}
	if _, err := ParseShape("many-small"); err != nil {
		t.Error(err)
	}
	if _, err := ParseShape("huge"); err == nil {
		t.Error("unknown shape accepted")
	}
}
