package sessions

import (
	"os"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
)

// When another panel appends to the open session, the panel reads it
// again and shows the new leaf; an append to another file is ignored.
func TestAnotherPanelsAppendReloadsTheOpenSession(t *testing.T) {
	hs, paths := newHarness(t, 120, 30)
	file := paths["rounding"]
	if hs.m.ls == nil || hs.m.ls.file != file {
		t.Fatal("the newest session should be open")
	}
	before := len(hs.m.ls.rows)
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(`{"type":"custom","customType":"pi-forge-capability-delivery","data":{"schemaVersion":1,"throughEventId":"x"},"id":"e20","parentId":"e19","timestamp":"2026-11-27T10:04:00.000Z"}` + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	hs.Send(common.SessionWrittenMsg{File: paths["currency"]})
	if len(hs.m.ls.rows) != before {
		t.Fatal("an append to another file reloaded the open session")
	}
	hs.Send(common.SessionWrittenMsg{File: file})
	if len(hs.m.ls.rows) != before+1 || hs.m.ls.sess.Entries[hs.m.ls.leaf].ID != "e20" {
		t.Fatalf("after the append: %d rows (had %d), leaf %d", len(hs.m.ls.rows), before, hs.m.ls.leaf)
	}
}
