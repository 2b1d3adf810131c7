// Package privcache reads and writes forgebench's private cache files in
// the user's cache directory (the session listing's index, the cache
// report's per-file parts): a file is read only when it is a regular file
// the current user owns and no larger than the caller allows, and written
// whole, mode 0600, through a temp file, fsync and rename, so a reader
// never sees half a cache. What the bytes mean is the caller's.
package privcache

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// Dir is the directory forgebench keeps its caches in: forgebench under
// the user's cache directory ("" when there is none, and then nothing is
// cached).
func Dir() string {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "forgebench")
}

// FileName is the name of the cache file of kind for key (what the file's
// content is for: directories, options, a program version): kind, a short
// hash of key and ".idx", so another key is another file.
func FileName(kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	return kind + "-" + hex.EncodeToString(sum[:12]) + ".idx"
}

// Read returns the content of file, or nil when it is missing, not a
// regular file, larger than limit, owned by another user or unreadable: a
// cache that cannot be trusted is as good as none.
func Read(file string, limit int64) []byte {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > limit || !ownedByMe(fi) {
		return nil
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil
	}
	return data
}

// Write replaces file (in dir, created 0700 if missing) with data: a temp
// file named by pattern (os.CreateTemp's) in dir, mode 0600, synced, then
// renamed over file. On any error file is left as it was.
func Write(dir, file, pattern string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename: nothing
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
