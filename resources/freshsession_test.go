package resources

import "testing"

// What a fresh session activates (§11.3, §14.2): an auto-activating profile
// beats Preset auto-activation; a profile request that cannot be honoured
// (two candidates) activates nothing at all; an untrusted project
// auto-activates nothing; only without any profile request does the
// standalone Preset rule apply.
func TestFreshSessionPreset(t *testing.T) {
	demo := mustLoad(t, demoWorkspace(t))
	p, via := demo.FreshSessionPreset()
	if p == nil || p.Key() != "project:guarded-worker" || via == nil || via.Key() != "project:tdd-worker" {
		t.Fatalf("demo: %v via %v, want project:guarded-worker via project:tdd-worker", p, via)
	}
	if demo.AutoActivatePreset().Key() != "project:pi-mirror" {
		t.Fatal("the standalone Preset rule itself is unchanged")
	}

	onlyPresets := mustLoad(t, newWorkspace(t, map[string]string{
		projStacks + "a.json": stackJSON("a", `,"autoActivate":true`),
	}))
	if p, via := onlyPresets.FreshSessionPreset(); p == nil || p.ID != "a" || via != nil {
		t.Fatalf("no profile request: %v via %v", p, via)
	}

	twoProfiles := mustLoad(t, newWorkspace(t, map[string]string{
		projStacks + "a.json":   stackJSON("a", `,"autoActivate":true`),
		projProfiles + "x.json": profileJSON("x", `,"autoActivate":true`),
		projProfiles + "y.json": profileJSON("y", `,"autoActivate":true`),
	}))
	if p, via := twoProfiles.FreshSessionPreset(); p != nil || via != nil {
		t.Fatalf("ambiguous profile request must activate nothing: %v via %v", p, via)
	}

	nullStack := mustLoad(t, newWorkspace(t, map[string]string{
		projStacks + "a.json":   stackJSON("a", `,"autoActivate":true`),
		projProfiles + "x.json": profileJSON("x", `,"autoActivate":true`),
	}))
	if p, via := nullStack.FreshSessionPreset(); p != nil || via == nil || via.ID != "x" {
		t.Fatalf("a profile with promptStack null wins and activates no Preset: %v via %v", p, via)
	}

	ws := newWorkspace(t, map[string]string{globStacks + "g.json": stackJSON("g", `,"autoActivate":true`)})
	ws.Trust = Trust{Trusted: false, Source: "test"}
	untrusted := mustLoad(t, ws)
	if p, via := untrusted.FreshSessionPreset(); p != nil || via != nil {
		t.Fatalf("an untrusted project auto-activates nothing: %v via %v", p, via)
	}
	if untrusted.AutoActivateProfile() != nil {
		t.Fatal("no profile auto-activates in an untrusted project")
	}
}

// The selector in "Unknown prompt stack: <selector>" is trimmed with the
// JavaScript trim set, as the selector parser trims it (a BOM or NBSP too).
func TestUnknownPresetMessageUsesJSTrim(t *testing.T) {
	lib := mustLoad(t, newWorkspace(t, nil))
	_, err := lib.ResolvePreset("\ufeff\u00a0nope\u3000")
	if err == nil || err.Error() != "Unknown prompt stack: nope" {
		t.Fatalf("%q", err)
	}
}
