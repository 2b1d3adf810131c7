package resources

import (
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func TestDefaultMirrorIsCleanAndFresh(t *testing.T) {
	a := DefaultMirror("mine")
	if a.ID != "mine" || a.AutoActivate != nil || *a.Name != "mine" {
		t.Fatalf("unexpected header fields: id %q auto %v", a.ID, a.AutoActivate)
	}
	if diags := preset.Validate(a, preset.ParseOptions{}); diags.HasErrors() || diags.Count(preset.LevelWarning) > 0 {
		t.Fatalf("the default mirror must validate cleanly: %+v", diags)
	}
	hasHistory := false
	for _, it := range a.Items {
		hasHistory = hasHistory || it.Slot == "chat-history"
	}
	if !hasHistory {
		t.Fatal("the mirror must end in a chat-history slot")
	}
	b := DefaultMirror("other")
	b.Items[0].ID = "changed"
	if a.Items[0].ID == "changed" {
		t.Fatal("each call must return an independent stack")
	}
}
