package session

import (
	"crypto/rand"
	"encoding/hex"
	"math"
)

// migrate brings a v1 or v2 session to v3 in memory (spec §5) and reports
// whether anything was migrated. The file is never rewritten.
//
// fileIndex maps Pi's FileEntry positions (header at 0, extra "session"
// lines included) to entry indexes, which v1 compaction entries address
// through firstKeptEntryIndex.
func migrate(s *Session, fileIndex []int32) bool {
	version := s.Header.FileVersion
	if version >= CurrentVersion {
		return false
	}
	if version < 2 {
		migrateV1ToV2(s, fileIndex)
	}
	if version < 3 {
		migrateV2ToV3(s)
	}
	return true
}

// migrateV1ToV2 gives every entry a fresh random 8-hex id chained to the
// previous entry and converts compaction firstKeptEntryIndex to an id.
func migrateV1ToV2(s *Session, fileIndex []int32) {
	used := make(map[string]bool, len(s.Entries))
	prev := ""
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.NotObject {
			continue
		}
		e.ID, e.HasID = newEntryID(used), true
		e.ParentID, e.HasParent = prev, prev != ""
		e.Migrated = true
		prev = e.ID
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeCompaction || e.NotObject {
			continue
		}
		idx, ok := e.Field("firstKeptEntryIndex").Number()
		if !ok {
			continue // Pi converts (and deletes) numbers only
		}
		e.firstKeptIndexDeleted = true
		if idx != math.Trunc(idx) || idx < 0 || idx >= float64(len(fileIndex)) {
			continue // entries[idx] is undefined
		}
		target := int(fileIndex[int(idx)])
		switch {
		case target < 0: // the header or another "session" line
		case target <= i:
			// Pi converts inside the walk that assigns ids, so only the
			// compaction itself and the entries before it have one yet.
			id := s.Entries[target].ID
			e.firstKept = &id
		default:
			// A later entry still has its stored id (normally none).
			if id, ok := s.Entries[target].Field("id").Str(); ok {
				e.firstKept = &id
			} else {
				e.firstKeptUndefined = true
			}
		}
	}
}

// migrateV2ToV3 renames the v2 message role "hookMessage" to "custom".
func migrateV2ToV3(s *Session) {
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type == TypeMessage && e.Role == RoleHookMessage {
			e.Role = RoleCustom
			e.roleRenamed = true
		}
	}
}

// newEntryID returns a random 8-hex id not yet in used (Pi: the first eight
// characters of a random UUID).
func newEntryID(used map[string]bool) string {
	var b [4]byte
	for {
		_, _ = rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if !used[id] {
			used[id] = true
			return id
		}
	}
}
