package session

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// forgebench marks the ids of the entries it appends, so a later read can
// tell them from Pi's with nothing but the file: the id is still eight
// lowercase hex digits, unique in the file, as Pi writes them (spec §3.2),
// but only the first three are random; the other five are derived from
// those three and the entry's parentId. A random id Pi writes carries the
// mark once in 2^20, and a copy re-chained under another parent (a fork)
// loses it. The mark survives copies of the file and needs no record
// kept elsewhere; `capability status` and the Capabilities panel use it to
// say when entries forgebench wrote were left on an abandoned branch.
const (
	markRandomDigits = 3
	markSalt         = "forgebench-append\x00"
)

// markedEntryID draws a marked id for an entry whose parent is parent ("" =
// a root).
func markedEntryID(parent string) string {
	var b [2]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported systems
	prefix := hex.EncodeToString(b[:])[:markRandomDigits]
	return prefix + markDigits(parent, prefix)
}

// markDigits are the derived digits of a marked id.
func markDigits(parent, prefix string) string {
	sum := sha256.Sum256([]byte(markSalt + parent + "\x00" + prefix))
	return hex.EncodeToString(sum[:])[:8-markRandomDigits]
}

// WrittenByForgebench reports whether the entry's id carries the mark of
// forgebench's append (its parent as written in the file).
func WrittenByForgebench(e *Entry) bool {
	if !e.HasID || len(e.ID) != 8 || e.NotObject || e.Migrated {
		return false
	}
	for i := 0; i < len(e.ID); i++ {
		if c := e.ID[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	parent := ""
	if e.HasParent {
		parent = e.ParentID
	}
	return e.ID[markRandomDigits:] == markDigits(parent, e.ID[:markRandomDigits])
}
