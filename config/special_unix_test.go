//go:build unix

package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// A settings file that is a FIFO kept `forgebench` (the TUI) from ever
// starting, and a symbolic link to /dev/zero read until memory ran out.
// Both are an error that names the file, at once.
func TestSpecialSettingsFileIsRefused(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), "config.json")
		hostile.MakeSpecial(t, path, kind)
		var err error
		hostile.Within(t, "Load of a "+kind, func() { _, err = Load(path) })
		if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", kind, err)
		}
	}
}
