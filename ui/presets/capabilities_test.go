package presets

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/capstate"
)

// demoCapabilities unpacks the demo: its main session carries capability
// history and has project:guarded-worker active.
func demoCapabilities(t *testing.T) (resources.Workspace, string, *resources.Library) {
	t.Helper()
	layout, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := resources.Workspace{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, ForgeDir: layout.ForgeDir,
		Trust: resources.Trust{Trusted: true, Source: "test"}}
	files, _ := filepath.Glob(filepath.Join(layout.SessionDir, "2026-11-27T09-*.jsonl"))
	if len(files) != 1 {
		t.Fatal("main demo session missing")
	}
	lib, err := resources.LoadLibrary(ws)
	if err != nil {
		t.Fatal(err)
	}
	return ws, files[0], lib
}

// The preview carries the capability updates where the request would:
// native system sections for the model in force (GPT-5.4), in place of
// the stored anchors.
func TestPreviewShowsCapabilityUpdates(t *testing.T) {
	ws, file, lib := demoCapabilities(t)
	rc := loadRunContext(services.New(ws), file, "", time.Now())
	if rc.err != nil || rc.caps == nil {
		t.Fatalf("run context: %v %v", rc.err, rc.caps)
	}
	p, err := lib.ResolvePreset("guarded-worker")
	if err != nil {
		t.Fatal(err)
	}
	msg := previewCmd(context.Background(), 1, p.Stack, rc)().(previewMsg)
	var caps []string
	for _, part := range msg.res.Messages {
		if part.Kind == capstate.PartCapability {
			caps = append(caps, part.Label)
			// pi-forge keeps the inspector's prose ("Updated system prompt
			// section …:") out of a native card's text and estimate.
			if part.Text == "" || strings.Contains(part.Text, "system prompt section") {
				t.Errorf("capability part text %q", part.Text)
			}
		}
		if capability.IsDeliveryMarker(part.Message) {
			t.Error("a delivery marker survived the projection")
		}
	}
	if len(caps) == 0 || !strings.Contains(strings.Join(caps, "\n"), "native system section") {
		t.Fatalf("capability parts: %v", caps)
	}
}

// Saving a version of the active Preset that denies a tool an active
// capability adds is refused by the preflight, with what it would break.
func TestSavePreflightOfTheActivePreset(t *testing.T) {
	ws, file, lib := demoCapabilities(t)
	p, err := lib.ResolvePreset("guarded-worker")
	if err != nil {
		t.Fatal(err)
	}
	stack := *p.Stack
	stack.Tools = &preset.ResourcePolicy{Deny: []string{"edit"}}
	draft := &capability.PresetRef{Key: capability.Key{Scope: p.Scope, ID: p.ID}, Stack: &stack}
	if got := services.New(ws).PreflightFile(file, draft); got != `Tool "edit" is blocked by prompt stack "guarded-worker".` {
		t.Fatalf("preflight: %q", got)
	}
	// Another Preset is not the active one: nothing to check.
	other := &capability.PresetRef{Key: capability.Key{Scope: p.Scope, ID: "pi-mirror"}, Stack: &stack}
	if got := services.New(ws).PreflightFile(file, other); got != "" {
		t.Fatalf("inactive preset: %q", got)
	}
}

// The draft diff compares what the next request would carry, so both
// sides carry the capability updates and no delivery marker is a block.
func TestDraftDiffCarriesCapabilityUpdates(t *testing.T) {
	ws, file, lib := demoCapabilities(t)
	rc := loadRunContext(services.New(ws), file, "", time.Now())
	p, err := lib.ResolvePreset("guarded-worker")
	if err != nil {
		t.Fatal(err)
	}
	msg := draftDiffCmd(p.Stack, p.Stack, rc)().(draftDiffMsg)
	for _, b := range msg.diff.Blocks {
		for _, side := range []*turndiff.Block{b.Before, b.After} {
			if side != nil && side.Role == "custom" {
				t.Errorf("a delivery marker is a block: %+v", side)
			}
		}
	}
	// One block for the system prompt, one per message of the projected
	// preview (the checkpoint and the write-access update included).
	pv := previewCmd(context.Background(), 1, p.Stack, rc)().(previewMsg)
	if len(msg.diff.Blocks) != 1+len(pv.res.Messages) {
		t.Fatalf("%d blocks for %d projected messages", len(msg.diff.Blocks), len(pv.res.Messages))
	}
}
