package resources

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Temporary files of atomic writes are named
//
//	.forgebench-<host>-<pid>-<random>.tmp
//
// whatever the target is called: short (about 40 bytes), so a target name
// near the file system's limit still has a temporary sibling; hidden and
// without a .json/.jsonl suffix, so library and session discovery never
// list them; and saying who wrote them, so a later write can tell a file
// left by a killed writer from one being written right now.
const (
	tempPrefix = ".forgebench-"
	tempSuffix = ".tmp"
	// staleTempAge is the age after which any temporary file of ours is
	// abandoned: no write takes an hour.
	staleTempAge = time.Hour
)

// hostMarker is 6 hex digits of the host name's SHA-256: a writer's pid
// only means something on the host that wrote the name (a shared or
// network directory can hold another machine's temporary files).
var hostMarker = sync.OnceValue(func() string {
	host, _ := os.Hostname()
	sum := sha256.Sum256([]byte(host))
	return hex.EncodeToString(sum[:3])
})

// tempNameFor builds a temporary file name.
func tempNameFor(host string, pid int, random string) string {
	return tempPrefix + host + "-" + strconv.Itoa(pid) + "-" + random + tempSuffix
}

// parseTempName splits one of our temporary names into host marker and pid.
func parseTempName(name string) (host string, pid int, ok bool) {
	if !strings.HasPrefix(name, tempPrefix) || !strings.HasSuffix(name, tempSuffix) {
		return "", 0, false
	}
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(name, tempPrefix), tempSuffix), "-")
	if len(parts) != 3 || len(parts[0]) != 6 || !isLowerHex(parts[0]) || len(parts[2]) != 8 || !isLowerHex(parts[2]) {
		return "", 0, false
	}
	digits := parts[1]
	if len(digits) == 0 || len(digits) > 10 || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return "", 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil {
		return "", 0, false
	}
	return parts[0], pid, true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// isOwnTempName reports whether name is a temporary file name of this
// forgebench version.
func isOwnTempName(name string) bool {
	_, _, ok := parseTempName(name)
	return ok
}

// tempWriterPID returns the pid that created a temporary file of ours.
func tempWriterPID(name string) (int, bool) {
	_, pid, ok := parseTempName(name)
	return pid, ok
}

// isLegacyTempName reports whether name is a temporary file of an earlier
// forgebench version, which wrote ".<id>.json.tmp-<digits>" (os.CreateTemp
// with a decimal random part) next to resource files.
func isLegacyTempName(name string) bool {
	base, digits, found := strings.Cut(name, ".json.tmp-")
	if !found || len(base) < 2 || base[0] != '.' || len(digits) == 0 || len(digits) > 10 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// isResourceDir reports whether dir is a resource storage directory
// (prompt-stacks, capabilities, agent-profiles), where earlier forgebench
// versions wrote their temporary files.
func isResourceDir(dir string) bool {
	switch filepath.Base(dir) {
	case KindPreset.dirName(), KindCapability.dirName(), KindProfile.dirName():
		return true
	}
	return false
}

// createTemp sweeps dir of stale temporary files (sweepStaleTemps) and
// creates a new, exclusive temporary file there, readable only by the user
// until the caller sets the final mode.
func createTemp(dir string) (*os.File, error) {
	sweepStaleTemps(dir, time.Now())
	var random [4]byte
	for range 100 {
		if _, err := rand.Read(random[:]); err != nil {
			return nil, fmt.Errorf("random temporary name: %w", err)
		}
		name := filepath.Join(dir, tempNameFor(hostMarker(), os.Getpid(), hex.EncodeToString(random[:])))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: dir, Err: fs.ErrExist}
}

// sweepStaleTemps removes the temporary files a killed or crashed writer
// left in dir: ours when they are older than staleTempAge or their writer
// (same host, another pid) is no longer running, and an earlier version's
// when they are older than staleTempAge and dir is a resource directory
// (the only place it wrote them; elsewhere — an export's directory — the
// same name may be another program's). Only regular files are removed;
// failures are ignored (the write itself does not depend on the sweep).
func sweepStaleTemps(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	self := os.Getpid()
	legacyDir := isResourceDir(dir)
	for _, e := range entries {
		name := e.Name()
		if len(name) == 0 || name[0] != '.' || !e.Type().IsRegular() {
			continue
		}
		host, pid, own := parseTempName(name)
		if !own && !(legacyDir && isLegacyTempName(name)) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		stale := now.Sub(fi.ModTime()) > staleTempAge
		if own && !stale && host == hostMarker() && pid != self {
			stale = !processAlive(pid)
		}
		if stale {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// defaultMaxNameBytes is NAME_MAX where the file system cannot be asked.
const defaultMaxNameBytes = 255

// nameTooLongError refuses an id whose file name the file system cannot
// hold. pi-forge would fail with Node's ENAMETOOLONG; forgebench says what
// is wrong before touching the disk.
func nameTooLongError(kind Kind, name string, limit int) *Error {
	id := strings.TrimSuffix(name, ".json")
	shown := id
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	return newError(ErrRefused, fmt.Sprintf("Cannot store %s %s: id too long for this file system (the file name is %d bytes, the limit is %d).",
		kind.noun(), shown, len(name), limit))
}
