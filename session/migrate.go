package session

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
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

// migrateV1ToV2 gives every entry an 8-hex id chained to the previous entry
// and converts compaction firstKeptEntryIndex to an id.
//
// The ids are forgebench's, not Pi's: Pi draws random ids when it migrates
// (and rewrites) a v1 file, so no reader can know them in advance. Random
// ids on every load would make an id copied from `session tree` useless in
// the next command, so forgebench derives them (DerivedV1EntryID) from the
// session id and the entry's line: the same file always gets the same ids.
func migrateV1ToV2(s *Session, fileIndex []int32) {
	used := make(map[string]bool, len(s.Entries))
	prev := ""
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.NotObject {
			continue
		}
		e.ID, e.HasID = uniqueV1ID(s.Header.ID, e.Line, used), true
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

// DerivedV1EntryID is the id forgebench gives the v1 entry on the given
// file line of the session with the given header id (attempt 0; a
// collision within the file moves on to attempt 1, 2 …): the first 8 hex
// digits of SHA-256 over the three values. It is forgebench's convention,
// stable across runs; Pi gives such entries random ids when it rewrites the
// file as v3.
func DerivedV1EntryID(sessionID string, line, attempt int) string {
	h := sha256.New()
	h.Write([]byte("forgebench-v1-entry\x00" + sessionID + "\x00" + strconv.Itoa(line) + "\x00" + strconv.Itoa(attempt)))
	return hex.EncodeToString(h.Sum(nil)[:4])
}

// uniqueV1ID returns the first derived id of line not yet in used and
// records it.
func uniqueV1ID(sessionID string, line int, used map[string]bool) string {
	for attempt := 0; ; attempt++ {
		id := DerivedV1EntryID(sessionID, line, attempt)
		if !used[id] {
			used[id] = true
			return id
		}
	}
}
