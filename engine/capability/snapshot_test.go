package capability

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func TestSnapshotValueAndJSON(t *testing.T) {
	name := "N"
	src := SnapshotSource{Kind: SourceCapability, Key: Key{preset.ScopeGlobal, "c"},
		Binding: &SnapshotBinding{Preset: Key{preset.ScopeProject, "p"}, ID: "b"}}
	tools := ToolPatch{Add: []string{"x"}, Remove: []string{}}
	// Canonical form derived by hand: keys sorted, no whitespace.
	canonical := `{"content":"text","name":"N","schemaVersion":1,"source":{"binding":{"id":"b","preset":{"id":"p","scope":"project"}},"key":{"id":"c","scope":"global"},"kind":"capability"},"tools":{"add":["x"],"remove":[]},"type":"pi-forge.capability-snapshot"}`
	sum := sha256.Sum256([]byte(canonical))
	want := "sha256:v1:" + hex.EncodeToString(sum[:])
	if got := SnapshotFingerprint(src, &name, "text", tools); got != want {
		t.Errorf("fingerprint %s, want %s", got, want)
	}
	snap := NewSnapshot("act-1", src, &name, "text", tools)
	name = "changed later"
	tools.Add[0] = "mutated"
	wantJSON := `{"activationId":"act-1","source":{"kind":"capability","key":{"scope":"global","id":"c"},"binding":{"preset":{"scope":"project","id":"p"},"id":"b"}},"name":"N","content":"text","tools":{"add":["x"],"remove":[]},"fingerprint":"` + want + `"}`
	if got := jsonv.Stringify(snap.JSON()); got != wantJSON {
		t.Errorf("snapshot JSON\n got %s\nwant %s", got, wantJSON)
	}
	manual := NewSnapshot("m", SnapshotSource{Kind: SourceManual}, nil, "x", ToolPatch{})
	if got := jsonv.Stringify(manual.JSON()); got != `{"activationId":"m","source":{"kind":"manual"},"content":"x","tools":{"add":[],"remove":[]},"fingerprint":"`+manual.Fingerprint+`"}` {
		t.Errorf("manual JSON %s", got)
	}
	bad := ReadFailure("x.json", preset.ScopeProject, nil)
	if _, ok := bad.Snapshot("a"); ok {
		t.Error("unusable entry snapshot")
	}
	if b := (&BoundCapability{Error: "x"}); b.SnapshotFingerprint() != "" {
		t.Error("unusable binding fingerprint")
	} else if _, ok := b.Snapshot("a"); ok {
		t.Error("unusable binding snapshot")
	}
}

// TestSnapshotCanonicalMatchesGeneric pins the direct snapshot encoder to
// the generic canonical JSON of SnapshotValue.
func TestSnapshotCanonicalMatchesGeneric(t *testing.T) {
	name := "Ünïcode \u2028 <&> \"q\""
	empty := ""
	sources := []SnapshotSource{
		{Kind: SourceManual},
		{Kind: SourceCapability, Key: Key{Scope: "project", ID: "a"}},
		{Kind: SourceCapability, Key: Key{Scope: "global", ID: "b.c"}, Binding: &SnapshotBinding{Preset: Key{Scope: "global", ID: "p"}, ID: "z-1"}},
	}
	for _, src := range sources {
		for _, n := range []*string{nil, &name, &empty} {
			for _, tools := range []ToolPatch{{Add: []string{}, Remove: []string{}}, {Add: []string{"bash", "😀"}, Remove: []string{"x"}}} {
				generic, err := fingerprint.CanonicalJSON(SnapshotValue(src, n, "line\n\ttab \x01 \ud7ff", tools))
				if err != nil {
					t.Fatal(err)
				}
				if fast := string(appendSnapshotCanonical(nil, src, n, "line\n\ttab \x01 \ud7ff", tools)); fast != generic {
					t.Errorf("canonical mismatch:\n fast %s\n want %s", fast, generic)
				}
			}
		}
	}
}
