package stats

import (
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// EntriesStats reads usage from the reader's spans; over a whole branch it
// must agree with BranchStats on everything but the tool calls.
func TestEntriesStatsAgreesWithBranchStats(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	files = append(files, more...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no test sessions: %v", err)
	}
	for _, f := range files {
		s, err := session.Open(f)
		if err != nil {
			continue
		}
		leaf := s.LeafIndex()
		want := BranchStats(s, leaf, nil)
		got := EntriesStats(s, s.PathTo(leaf), nil)
		if got.Tokens != want.Tokens || got.Cost != want.Cost || got.StoredCost != want.StoredCost ||
			len(got.Unpriced) != len(want.Unpriced) || got.UserMessages != want.UserMessages || got.AssistantMessages != want.AssistantMessages {
			t.Errorf("%s: EntriesStats %+v\nBranchStats %+v", f, got, want)
		}
	}
}
