package payloads

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// The per-request cache view shows the runs made inside tool calls
// (pi-forge's forgeNestedUsage) on a line of their own, apart from the
// session model's requests, which stay the rows and the branch line.
func TestRequestsViewShowsNestedRunsApart(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "session", "stats", "testdata", "nested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		name := fmt.Sprintf("requests_nested_%dx%d", w, h)
		t.Run(name, func(t *testing.T) {
			hs := newHarness(t, w, h, true, "-")
			file := filepath.Join(t.TempDir(), "nested.jsonl")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			hs.com.Selection = common.Selection{SessionFile: file, EntryID: "n10"}
			hs.Send(common.SelectionChangedMsg{Selection: hs.com.Selection})
			hs.Press("s", "s")
			view := hs.view()
			if !strings.Contains(view, "branch: 3 request(s)") ||
				!strings.Contains(view, "nested: 2 call(s), 5 request(s) · read 7,200") {
				t.Fatalf("the nested runs are not apart from the 3 requests:\n%s", view)
			}
			if whole, ok := hs.m.reqs.whole(); !ok || !strings.Contains(whole.Text, "1 no cache figures · 1 malformed") ||
				!strings.Contains(whole.Text, "forgeNestedUsage") {
				t.Errorf("the whole request (v) lacks the nested line: %+v", whole)
			}
			uitest.AssertFills(t, hs.m.View(), w, h)
			uitest.Golden(t, name, hs.m.View())
		})
	}
}
