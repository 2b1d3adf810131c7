package preset

// add appends a diagnostic.
func (d *Diagnostics) add(level Level, message, itemID string) {
	*d = append(*d, Diagnostic{Level: level, Message: message, ItemID: itemID})
}

func (d *Diagnostics) addError(message string)   { d.add(LevelError, message, "") }
func (d *Diagnostics) addWarning(message string) { d.add(LevelWarning, message, "") }

// HasErrors reports whether any diagnostic is an error (the Preset is then unusable).
func (d Diagnostics) HasErrors() bool {
	for _, x := range d {
		if x.Level == LevelError {
			return true
		}
	}
	return false
}

// Count returns the number of diagnostics of the given level.
func (d Diagnostics) Count(level Level) int {
	n := 0
	for _, x := range d {
		if x.Level == level {
			n++
		}
	}
	return n
}

// Dedupe returns the diagnostics without repeats of (level, message, itemId),
// keeping the first occurrence and the original order.
func (d Diagnostics) Dedupe() Diagnostics {
	type key struct {
		level         Level
		message, item string
	}
	seen := make(map[key]struct{}, len(d))
	out := make(Diagnostics, 0, len(d))
	for _, x := range d {
		k := key{x.Level, x.Message, x.ItemID}
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		out = append(out, x)
	}
	return out
}
