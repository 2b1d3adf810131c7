//go:build unix

package catalog

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// A models.json that is a FIFO blocked every command that prices a session
// (session context, stats, agents list, payload show …) forever, and a
// symbolic link to /dev/zero read until memory ran out. Both are refused at
// once and named in the one diagnostic; the built-in models stay usable.
func TestSpecialModelsFileIsADiagnosticNotAHang(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		dir := t.TempDir()
		hostile.MakeSpecial(t, filepath.Join(dir, ModelsFile), kind)
		var cat *Catalog
		var diags []Diagnostic
		hostile.Within(t, "Shared with a "+kind+" models.json", func() { cat, diags = Shared(dir) })
		if cat != Default() || len(diags) != 1 || !strings.Contains(diags[0].Line(), "not a regular file") ||
			!strings.Contains(diags[0].Line(), "built-in models only") {
			t.Errorf("%s: %p %v", kind, cat, diags)
		}
	}
}
