//go:build !unix

package privcache

import "io/fs"

// ownedByMe: the cache lives in the user's own profile directory.
func ownedByMe(fs.FileInfo) bool { return true }
