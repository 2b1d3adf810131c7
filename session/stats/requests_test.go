package stats

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// The requests and spendings add up to the statistics, so a chart never
// draws a figure the stats view does not total.
func TestRequestsAndSpendingsAddUpToTheStats(t *testing.T) {
	seen := 0
	for _, name := range []string{"priced.jsonl", "compacted.jsonl", "unavailable.jsonl"} {
		path := filepath.Join("testdata", name)
		s, err := session.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		cat := catalog.Default()
		st := SessionStats(s, cat)
		all := make([]int, len(s.Entries))
		for i := range all {
			all[i] = i
		}
		reqs := Requests(s, all, cat)
		seen += len(reqs)
		var reqCost, reqTokens float64
		for i := range reqs {
			e := &s.Entries[reqs[i].Index]
			if e.Role != session.RoleAssistant || e.ID != reqs[i].EntryID {
				t.Fatalf("%s: request %d is not the assistant message %s", name, i, e.ID)
			}
			reqCost += reqs[i].Cost
			reqTokens += reqs[i].Tokens()
		}
		d, err := ReadDigest(path, DigestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var cost, tokens, asked float64
		for _, sp := range d.Spendings(cat) {
			cost += sp.Cost
			tokens += sp.Tokens
			if sp.Request {
				asked += sp.Cost
			}
		}
		if math.Abs(cost-st.Cost) > 1e-9 || tokens != st.Tokens.Total {
			t.Errorf("%s: spendings $%v %v tokens, stats $%v %v tokens", name, cost, tokens, st.Cost, st.Tokens.Total)
		}
		if math.Abs(asked-reqCost) > 1e-9 || reqTokens > st.Tokens.Total {
			t.Errorf("%s: requests $%v (%v tokens), the digest's requests $%v", name, reqCost, reqTokens, asked)
		}
		if len(reqs) == 0 && st.AssistantMessages > 0 && st.Tokens.Total > 0 {
			t.Errorf("%s: no requests for %d assistant messages", name, st.AssistantMessages)
		}
	}
	if seen == 0 {
		t.Fatal("the test files have no requests: the sums prove nothing")
	}
}
