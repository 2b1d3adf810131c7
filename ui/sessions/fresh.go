package sessions

import "github.com/forgebench/forgebench/session"

// freshBranch reports whether the branch from the root to entry idx holds
// only what Pi writes into a newly started session before its first
// prompt: exactly one thinking-level change, at most one model change, and
// session names (pi-forge 0.5.1's isFreshStartupBranch, which decides
// whether a session start auto-activates an agent profile). It stops at
// once the entry itself rules it out (a message, say), so the cursor moving
// over a long session costs nothing.
func freshBranch(s *session.Session, idx int) bool {
	if idx < 0 || idx >= len(s.Entries) || !startupType(s.Entries[idx].Type) {
		return false
	}
	models, thinking := 0, 0
	for _, i := range s.PathTo(idx) {
		switch s.Entries[i].Type {
		case session.TypeModelChange:
			if models++; models > 1 {
				return false
			}
		case session.TypeThinkingLevelChange:
			if thinking++; thinking > 1 {
				return false
			}
		case session.TypeSessionInfo:
		default:
			return false
		}
	}
	return thinking == 1
}

// startupType is an entry type a fresh session's branch may hold.
func startupType(t string) bool {
	return t == session.TypeModelChange || t == session.TypeThinkingLevelChange || t == session.TypeSessionInfo
}
