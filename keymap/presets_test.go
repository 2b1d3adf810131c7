package keymap

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestPresetsKeysHaveUniqueNamesAndRebind(t *testing.T) {
	p := DefaultPresets()
	for name, b := range p.Named() {
		if !strings.HasPrefix(name, "presets.") || len(b.Keys()) == 0 {
			t.Errorf("binding %s: want a presets. name and at least one key", name)
		}
	}
	if err := Apply(&p, map[string][]string{"presets.save": {"ctrl+w"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}, p.Save) {
		t.Fatal("ctrl+w should save after rebinding")
	}
}
