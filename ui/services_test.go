package ui

import (
	"testing"

	"github.com/forgebench/forgebench/services"
)

// The workbench builds no services of its own beyond the root's: every
// panel, the palette and the search ask the one Common holds, through
// start-up, a visit to every panel, the palette and a reload.
func TestTheWorkbenchBuildsOneServices(t *testing.T) {
	before := services.Built()
	m, h := demoHarness(t)
	svc := m.com.Services()
	for _, k := range []string{"2", "3", "4", "5", "1", ":", "esc", "3", "r", "ctrl+f", "esc", "2", "r"} {
		h.Press(k)
	}
	h.Settle()
	if n := services.Built() - before; n != 1 {
		t.Fatalf("the workbench built %d services values, want 1", n)
	}
	if m.com.Services() != svc {
		t.Fatal("the root's services were replaced")
	}
	if svc.LibraryLoads() == 0 {
		t.Fatal("the panels never asked the services for the library")
	}
}

// A workbench given the CLI's services (ui.Options.Services) builds none.
func TestTheWorkbenchUsesTheServicesItIsGiven(t *testing.T) {
	m, _ := demoHarness(t)
	given := m.com.Services()
	before := services.Built()
	m2 := New(Options{Workspace: given.Workspace(), Services: given, Keys: m.keys})
	if services.Built() != before || m2.com.Services() != given {
		t.Fatal("the root built services of its own next to the ones it was given")
	}
}
