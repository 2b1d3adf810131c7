package replay

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// PresetStateType is pi-forge's custom entry that records the Preset
// selection of a branch (spec pi-forge-formats §9.5, §14.2).
const PresetStateType = "pi-forge-prompt-stack-state"

// PresetChoice says what a branch records about the active Preset.
type PresetChoice int

const (
	// PresetUnrecorded: the branch holds no usable selection, so pi-forge
	// falls back to auto-activation (an agent profile, then a Preset's own
	// autoActivate).
	PresetUnrecorded PresetChoice = iota
	// PresetDisabled: the selection is "none" (pi-forge also reads "off").
	PresetDisabled
	// PresetSelected: a Preset is chosen by its selector.
	PresetSelected
)

// ActivePreset is the Preset selection pi-forge restores at an entry.
type ActivePreset struct {
	Choice PresetChoice
	// Selector is the recorded activeStackId when Choice is PresetSelected:
	// a scoped key ("project:<id>", "global:<id>") as pi-forge writes it, or
	// a bare id in older entries (resolve it through the library; one that
	// no longer resolves also falls back to auto-activation in pi-forge).
	Selector string
}

// String is the selection as one word: the selector, "none" when Presets
// are switched off, "" when nothing is recorded.
func (a ActivePreset) String() string {
	switch a.Choice {
	case PresetDisabled:
		return "none"
	case PresetSelected:
		return a.Selector
	}
	return ""
}

// ActivePresetAt decodes the Preset selection in force at the entry with
// the given index, as pi-forge's getRestoredActiveId does: the latest
// pi-forge-prompt-stack-state entry on the branch ending there decides. Its
// data.activeStackId must be a non-empty string, else nothing is recorded
// (an older entry does not take over); "none" and "off" mean disabled.
func ActivePresetAt(s *session.Session, index int) ActivePreset {
	path := s.PathTo(index)
	for k := len(path) - 1; k >= 0; k-- {
		e := &s.Entries[path[k]]
		if e.Type != session.TypeCustom {
			continue
		}
		// One scan of the line, no decoding: a long branch of other custom
		// entries (capability events) is walked cheaply.
		customType, data, ok := e.CustomPayload()
		if !ok || customType != PresetStateType {
			continue
		}
		return decodePresetState(data)
	}
	return ActivePreset{}
}

// DecodePresetState reads the data of a pi-forge-prompt-stack-state entry
// (a custom entry of type PresetStateType): what ActivePresetAt returns
// when that entry is the latest of its kind on the branch. For a caller
// that walks the branch anyway (capstate) and need not scan it twice.
func DecodePresetState(data []byte) ActivePreset { return decodePresetState(data) }

// decodePresetState reads the data of a pi-forge-prompt-stack-state entry.
func decodePresetState(data []byte) ActivePreset {
	v, err := jsonv.Parse(data)
	if err != nil {
		return ActivePreset{}
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return ActivePreset{}
	}
	raw, _ := obj.Get("activeStackId")
	id, ok := raw.(string)
	switch {
	case !ok || id == "":
		return ActivePreset{}
	case id == "none" || id == "off":
		return ActivePreset{Choice: PresetDisabled}
	}
	return ActivePreset{Choice: PresetSelected, Selector: id}
}
