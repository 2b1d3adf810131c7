package cachemiss

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// piCase is one file of testdata/pi-misses.json, written by
// bench/pi-cache-misses.mjs from Pi 1.6.0's own collectCacheMisses.
type piCase struct {
	File    string   `json:"file"`
	Root    string   `json:"root"`
	V1      bool     `json:"v1"`
	Entries int      `json:"entries"`
	Error   string   `json:"error"`
	Misses  []piMiss `json:"misses"`
}

type piMiss struct {
	Index        int      `json:"index"`
	EntryID      *string  `json:"entryId"`
	MissedTokens *float64 `json:"missedTokens"`
	MissedCost   *float64 `json:"missedCost"`
}

func loadPiCases(t *testing.T) []piCase {
	t.Helper()
	data, err := os.ReadFile("testdata/pi-misses.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []piCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Cases
}

// sameNumber compares a figure with Pi's; JSON.stringify writes NaN as
// null.
func sameNumber(got float64, want *float64) bool {
	if want == nil {
		return math.IsNaN(got)
	}
	return got == *want
}

// TestMissesEqualPis runs the detector on every file Pi's own
// collectCacheMisses ran on (the demo's sessions, the generated ones and,
// with FORGEBENCH_SHARED, the fixtures) and requires the same misses: the
// same entries, missedTokens and missedCost, bit for bit.
func TestMissesEqualPis(t *testing.T) {
	cases := loadPiCases(t)
	var repo, shared int
	for _, c := range cases {
		if c.Root == "repo" {
			repo++
		} else {
			shared++
		}
	}
	if repo < 40 || shared < 5 {
		t.Fatalf("testdata/pi-misses.json holds %d repository and %d shared files; regenerate it", repo, shared)
	}
	cat := catalog.Default()
	for _, c := range cases {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			var path string
			switch c.Root {
			case "repo":
				path = filepath.Join("..", "..", filepath.FromSlash(c.File))
			default:
				path = fixtures.Path(t, strings.TrimPrefix(c.File, "fixtures/"))
			}
			s, err := session.Open(path)
			if c.Error != "" {
				// Pi cannot open this file: there is nothing to compare,
				// but forgebench must still read it, or say why, and its
				// detector must run on what it read.
				if err == nil {
					Detect(s, nil, catalog.Default())
				}
				t.Logf("Pi fails on this file (%s); forgebench: %v", c.Error, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Entries) != c.Entries {
				t.Fatalf("%d entries, Pi has %d", len(s.Entries), c.Entries)
			}
			got := Detect(s, nil, cat).Misses
			if len(got) != len(c.Misses) {
				t.Errorf("%d misses, Pi counts %d", len(got), len(c.Misses))
			}
			for k := 0; k < len(got) && k < len(c.Misses); k++ {
				g, w := got[k], c.Misses[k]
				if g.Index != w.Index || (!c.V1 && (w.EntryID == nil || g.EntryID != *w.EntryID)) {
					t.Errorf("miss %d at entry %d (%s), Pi's at %d (%v)", k, g.Index, g.EntryID, w.Index, deref(w.EntryID))
					continue
				}
				if !sameNumber(g.MissedTokens, w.MissedTokens) {
					t.Errorf("miss at %s: missedTokens %v, Pi %v", g.EntryID, g.MissedTokens, derefF(w.MissedTokens))
				}
				if !sameNumber(g.MissedCost, w.MissedCost) {
					t.Errorf("miss at %s: missedCost %v, Pi %v", g.EntryID, g.MissedCost, derefF(w.MissedCost))
				}
				if !g.CostKnown && (w.MissedCost == nil || *w.MissedCost != 0) {
					t.Errorf("miss at %s: cost unknown where Pi prices it %v", g.EntryID, derefF(w.MissedCost))
				}
			}
		})
	}
}

// TestDemoPreReleaseReviewHasTwoMisses pins the example: Pi counts
// two misses on the demo's "Pre-release review".
func TestDemoPreReleaseReviewHasTwoMisses(t *testing.T) {
	matches, _ := filepath.Glob("../../resources/demo/workspace/home/.pi/agent/sessions/*/*_01a2219b-7aa3-71cb-a60b-a97d171ea8a4.jsonl")
	if len(matches) != 1 {
		t.Fatalf("demo session not found: %v", matches)
	}
	s, err := session.Open(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Detect(s, nil, catalog.Default()).Misses); n != 2 {
		t.Fatalf("%d misses, Pi counts 2", n)
	}
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func derefF(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
