package compile

import (
	"fmt"
	"regexp"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// Custom slots are registered by trusted extension modules
// (registerSlot, §3.4), JavaScript that forgebench does not run. Offline a
// Preset naming one compiles with pi-forge's "Unsupported slot" warning
// and renders it empty, unless the user supplies the slot's output for
// the preview (Runtime.CustomSlots), as --macros does for extension
// macros: the slot then renders that text, held to SlotOutputLimit like
// every slot's output.

// customSlotNameRE is registerSlot's name rule.
var customSlotNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// ValidCustomSlotName reports whether name may be registered as a custom
// slot: registerSlot's name rule, and not a built-in slot's name.
func ValidCustomSlotName(name string) bool {
	return customSlotNameRE.MatchString(name) && !IsBuiltinSlot(name)
}

// ParseCustomSlots reads a JSON object of custom slot values {name: text}
// (the CLI's --slots file, a compile request's "slots"); what names it in
// errors. Every key must be a valid custom slot name and every value a
// string.
func ParseCustomSlots(value any, what string) (map[string]string, error) {
	obj, ok := value.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("%s: must be a JSON object of strings {slot: text}", what)
	}
	out := make(map[string]string, obj.Len())
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		s, isString := v.(string)
		switch {
		case IsBuiltinSlot(k):
			return nil, fmt.Errorf("%s: %q is a built-in slot; only custom slots take a value", what, k)
		case !customSlotNameRE.MatchString(k):
			return nil, fmt.Errorf("%s: invalid slot name %q (a letter, then letters, digits, _ or -)", what, k)
		case !isString:
			return nil, fmt.Errorf("%s: %s must be a string", what, k)
		}
		out[k] = s
	}
	return out, nil
}
