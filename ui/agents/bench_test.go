package agents

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// BenchmarkKeypressFrame is one cursor move and the frame after it on a
// list of 1,000 agents (rows from the demo tree, repeated under new paths;
// the detail pane shows a real agent).
func BenchmarkKeypressFrame(b *testing.B) {
	hs := newHarness(b, 160, 48)
	base := hs.m.agents.rows.Items()
	rows := make([]agentRow, 0, 1000)
	for i := 0; len(rows) < 1000; i++ {
		r := base[i%len(base)]
		r.path = fmt.Sprintf("%s_%04d", r.path, i)
		r.name = fmt.Sprintf("%s_%04d", r.name, i)
		rows = append(rows, r)
	}
	hs.m.agents.rows.SetItems(rows)
	down, up := uitest.Key("down"), uitest.Key("up")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := down
		if i%400 >= 200 {
			k = up
		}
		hs.m.Update(k)
		_ = hs.m.View()
	}
}
