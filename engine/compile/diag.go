package compile

import "github.com/forgebench/forgebench/engine/preset"

// Diagnostic is a Preset diagnostic ({level, message, itemId?}).
type Diagnostic = preset.Diagnostic

const (
	levelError   = preset.LevelError
	levelWarning = preset.LevelWarning
	levelInfo    = preset.LevelInfo
)

func newDiagnostic(level preset.Level, message, itemID string) Diagnostic {
	return Diagnostic{Level: level, Message: message, ItemID: itemID}
}

func hasError(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Level == levelError {
			return true
		}
	}
	return false
}
