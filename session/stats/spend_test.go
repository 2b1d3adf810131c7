package stats

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

func TestSpendOfAddsUpByDayAndBySession(t *testing.T) {
	cat := catalog.Default()
	var items []session.ListItem
	var want float64
	for _, name := range []string{"priced.jsonl", "compacted.jsonl", "unavailable.jsonl"} {
		path := filepath.Join("testdata", name)
		items = append(items, session.SummarizeFile(path, session.ListOptions{}))
		s, err := session.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		want += SessionStats(s, cat).Cost
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("not a session\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	items = append(items, session.ListItem{Path: bad})

	sp := SpendOf(items, cat, time.UTC)
	if math.Abs(sp.Cost-want) > 1e-9 {
		t.Errorf("total $%v, the stats say $%v", sp.Cost, want)
	}
	if len(sp.Sessions) != 3 || len(sp.Problems) != 1 || sp.Problems[0].Path != bad {
		t.Fatalf("sessions %d, problems %+v", len(sp.Sessions), sp.Problems)
	}
	var days, tokens float64
	for i, d := range sp.Days {
		days += d.Cost
		tokens += d.Tokens
		if i > 0 && sp.Days[i-1].Day >= d.Day {
			t.Errorf("days out of order: %s then %s", sp.Days[i-1].Day, d.Day)
		}
		if _, err := time.Parse("2006-01-02", d.Day); err != nil || d.Sessions < 1 {
			t.Errorf("day %+v", d)
		}
	}
	if len(sp.Days) == 0 || math.Abs(days-sp.Cost) > 1e-9 || tokens != sp.Tokens {
		t.Errorf("days add up to $%v %v tokens, the total is $%v %v", days, tokens, sp.Cost, sp.Tokens)
	}
	for i := 1; i < len(sp.Sessions); i++ {
		if sp.Sessions[i-1].Cost < sp.Sessions[i].Cost {
			t.Errorf("sessions not costliest first: %v before %v", sp.Sessions[i-1].Cost, sp.Sessions[i].Cost)
		}
	}
	v := SpendValue(sp)
	for _, k := range []string{"cost", "tokens", "unpriced", "days", "sessions", "problems"} {
		if _, ok := v.Get(k); !ok {
			t.Errorf("the JSON has no %q", k)
		}
	}
	if empty := SpendOf(nil, cat, time.UTC); len(empty.Days) != 0 || empty.Cost != 0 {
		t.Errorf("no sessions: %+v", empty)
	}
}
