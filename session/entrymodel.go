package session

import (
	"sync"

	"github.com/forgebench/forgebench/session/internal/scan"
)

// ModelAt returns the model selected at the entry with the given index
// (spec §7 step 2: the last model_change or assistant message on the
// path). ok is false when the path selects none or the values are not
// strings.
func (s *Session) ModelAt(index int) (provider, modelID string, ok bool) {
	if index < 0 || index >= len(s.Entries) {
		return "", "", false
	}
	path := s.PathTo(index)
	for k := len(path) - 1; k >= 0; k-- {
		e := &s.Entries[path[k]]
		switch {
		case e.Type == TypeModelChange:
			provider, ok1 := e.Field("provider").Str()
			modelID, ok2 := e.Field("modelId").Str()
			return provider, modelID, ok1 && ok2
		case e.Type == TypeMessage && e.Role == RoleAssistant:
			provider, ok1 := e.provider.in(e.Raw).Str()
			modelID, ok2 := e.model.in(e.Raw).Str()
			return provider, modelID, ok1 && ok2
		}
	}
	return "", "", false
}

// AssistantModel returns the provider and model of an assistant message
// entry (ok false for other entries).
func (e *Entry) AssistantModel() (provider, modelID string, ok bool) {
	if e.Type != TypeMessage || e.Role != RoleAssistant {
		return "", "", false
	}
	provider, ok1 := e.provider.in(e.Raw).Str()
	modelID, ok2 := e.model.in(e.Raw).Str()
	return provider, modelID, ok1 && ok2
}

// spanPool recycles member buffers of CustomPayload's single scan.
var spanPool = sync.Pool{New: func() any { b := make([]scan.Span, 0, 16); return &b }}

// CustomPayload returns, from one scan of the entry, the customType of a
// custom or custom_message entry and its payload: `data` for custom,
// `details` for custom_message (nil when absent). ok is false for other
// entries or a customType that is not a string.
func (e *Entry) CustomPayload() (customType string, payload RawValue, ok bool) {
	field := "data"
	switch e.Type {
	case TypeCustom:
	case TypeCustomMessage:
		field = "details"
	default:
		return "", nil, false
	}
	if e.NotObject {
		return "", nil, false
	}
	bp := spanPool.Get().(*[]scan.Span)
	members, _, scanned := scan.ScanMembers(e.Raw, scan.SkipWS(e.Raw, 0), (*bp)[:0])
	if scanned {
		customType, ok = lookup(members, "customType").Str()
		payload = lookup(members, field)
	}
	*bp = members[:0]
	spanPool.Put(bp)
	return customType, payload, ok
}
