package resources

import (
	"encoding/json"
	"path/filepath"
)

// ThinkingSettings are the thinking-level defaults of Pi's settings: the
// global <agentDir>/settings.json under the project's .pi/settings.json
// (a project value wins, modelThinkingLevels merged key by key, as Pi's
// settings manager deep-merges them).
type ThinkingSettings struct {
	// Default is defaultThinkingLevel ("" when unset).
	Default string
	// PerModel is modelThinkingLevels, keyed "provider/id".
	PerModel map[string]string
}

// ForModel is the level Pi's setModel re-applies after switching to the
// model (_getThinkingLevelForModelSwitch): the per-model level, else the
// default; "" means neither is set (Pi keeps the current level).
func (s ThinkingSettings) ForModel(provider, id string) string {
	if l, ok := s.PerModel[provider+"/"+id]; ok && l != "" {
		return l
	}
	return s.Default
}

// PiThinkingSettings reads the thinking defaults of Pi's settings files;
// a missing or unreadable file contributes nothing.
func PiThinkingSettings(ws Workspace) ThinkingSettings {
	out := ThinkingSettings{PerModel: map[string]string{}}
	for _, path := range []string{filepath.Join(ws.AgentDir, "settings.json"), filepath.Join(ws.Cwd, ".pi", "settings.json")} {
		raw, err := readRegularFile(path)
		if err != nil {
			continue
		}
		var doc struct {
			DefaultThinkingLevel *string        `json:"defaultThinkingLevel"`
			ModelThinkingLevels  map[string]any `json:"modelThinkingLevels"`
		}
		if json.Unmarshal(trimBOM(raw), &doc) != nil {
			continue
		}
		if doc.DefaultThinkingLevel != nil {
			out.Default = *doc.DefaultThinkingLevel
		}
		for k, v := range doc.ModelThinkingLevels {
			if s, ok := v.(string); ok {
				out.PerModel[k] = s
			}
		}
	}
	return out
}
