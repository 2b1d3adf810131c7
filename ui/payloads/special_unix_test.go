//go:build unix

package payloads

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/test/hostile"
)

// A preset reference naming a FIFO (preset:<fifo>@<session>) blocked the
// panel's compare command forever; a link to /dev/zero read until memory
// ran out. Both are refused at once.
func TestPresetReferenceToASpecialFileIsRefused(t *testing.T) {
	e := env{svc: services.New(resources.Workspace{Cwd: t.TempDir()}), cache: newSessionCache()}
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), "stack.json")
		hostile.MakeSpecial(t, path, kind)
		var err error
		hostile.Within(t, "loadPreset of a "+kind, func() { _, _, err = e.resolver().LoadPreset(path) })
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("loadPreset(%s) = %v", kind, err)
		}
	}
}
