package sessions

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// The remembered Preset selection of every entry is what
// replay.ActivePresetAt says, in whatever order the cursor asks: on
// branches with several selections, on an abandoned branch, and on the
// hostile corpus's cycles and duplicate ids.
func TestPresetMemoAgreesWithActivePresetAt(t *testing.T) {
	dir := t.TempDir()
	branched := filepath.Join(dir, "branched.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"0c0ffee0-0000-7000-8000-000000000021","timestamp":"2026-11-27T09:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-11-27T09:00:01.000Z","message":{"role":"user","content":"one","timestamp":1}}`,
		`{"type":"custom","id":"p1","parentId":"m1","timestamp":"2026-11-27T09:00:02.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:alpha"}}`,
		`{"type":"message","id":"m2","parentId":"p1","timestamp":"2026-11-27T09:00:03.000Z","message":{"role":"user","content":"two","timestamp":2}}`,
		`{"type":"custom","id":"c1","parentId":"m2","timestamp":"2026-11-27T09:00:04.000Z","customType":"pi-forge-capability-event","data":{}}`,
		`{"type":"custom","id":"p2","parentId":"c1","timestamp":"2026-11-27T09:00:05.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"none"}}`,
		`{"type":"message","id":"m3","parentId":"p2","timestamp":"2026-11-27T09:00:06.000Z","message":{"role":"user","content":"three","timestamp":3}}`,
		`{"type":"message","id":"b1","parentId":"m2","timestamp":"2026-11-27T09:00:07.000Z","message":{"role":"user","content":"side","timestamp":4}}`,
		`{"type":"custom","id":"p3","parentId":"b1","timestamp":"2026-11-27T09:00:08.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"global:beta"}}`,
		`{"type":"message","id":"b2","parentId":"p3","timestamp":"2026-11-27T09:00:09.000Z","message":{"role":"user","content":"side two","timestamp":5}}`,
	}
	if err := os.WriteFile(branched, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{branched, filepath.Join("testdata", "rounding.jsonl")}
	hostile, _ := filepath.Glob(filepath.Join("..", "..", "test", "hostile", "sessions", "*.jsonl"))
	files = append(files, hostile...)
	rng := rand.New(rand.NewPCG(1, 21))
	for _, file := range files {
		s, err := session.Open(file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		ls := buildLoaded(file, s)
		if ls.tree == nil || len(ls.tree.Parent) != len(s.Entries) {
			t.Fatalf("%s: no tree to walk: the memo would only ask ActivePresetAt", file)
		}
		var memo presetMemo
		order := rng.Perm(len(s.Entries))
		for _, idx := range order {
			if got, want := memo.activeAt(ls, idx), replay.ActivePresetAt(s, idx); got != want {
				t.Fatalf("%s, entry %d (%s): remembered %+v, ActivePresetAt %+v", file, idx, s.Entries[idx].ID, got, want)
			}
		}
	}
}
