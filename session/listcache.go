package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/forgebench/forgebench/internal/privcache"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// The listing cache: an index of what ListCwd found in each session file,
// keyed per file by path, size, modification time (and, on unix, inode,
// change time), so that a listing reads only the files that changed since
// the last one. Shell completion lists a project's sessions at every key
// press; with 2,000 sessions reading each file's windows costs about a
// quarter of a second, a stat of each file a few milliseconds.
//
// The cache is one file per project and window options under a directory
// the caller names (the user's cache directory). It is never trusted
// blindly: a file that is not this version's format, was written for
// another project or other options, fails its checksum, holds a value
// discovery could not have produced, or (on unix) belongs to another user
// is ignored and replaced. It is written whole, temp file + fsync +
// rename, mode 0600; deleting it costs one slow listing.

// listCacheMagic opens every cache file; the digit is the format version.
const listCacheMagic = "forgebench list cache 1\n"

// listCacheMaxBytes bounds a cache file read: 2,000 sessions take ~1 MiB.
const listCacheMaxBytes = 64 << 20

// ErrListDeadline reports a cached listing stopped at its deadline; what
// was read before it is kept in the cache for the next listing.
var ErrListDeadline = errors.New("session listing stopped at its deadline")

// fileStamp is what identifies one version of a file for the cache.
type fileStamp struct {
	size, mtime, ino, ctime int64
}

// cachedItem is one file's ListItem as the cache keeps it (Path, Source
// and HasAgentTree come from the directory listing, not the file).
type cachedItem struct {
	stamp fileStamp
	item  ListItem
}

// ListCwdCached is ListCwd through the listing cache in cacheDir: the
// items are equal to ListCwd's (a test holds it), but only the files that
// changed since the cache was written are read. A non-zero deadline stops
// reading new files at that time: the listing then returns ErrListDeadline
// (and no items) after keeping what it read, so the next one goes on from
// there. A cache that cannot be written costs only speed.
func ListCwdCached(loc Locations, cwd string, opt ListOptions, cacheDir string, deadline time.Time) ([]ListItem, error) {
	opt = opt.withDefaults()
	defDir := loc.DefaultSessionDir(cwd, opt.Home)
	cands, err := dirCandidates(defDir, SourceDefault, "")
	if err != nil {
		return nil, err
	}
	wantCwd := ""
	if loc.SessionDir != "" {
		wantCwd = resolveCwd(cwd, opt.Home)
		more, err := dirCandidates(loc.SessionDir, SourceCustom, wantCwd)
		if err != nil {
			return nil, err
		}
		cands = append(cands, more...)
	}
	cands = dedupe(cands)
	key := listCacheKey(defDir, loc.SessionDir, wantCwd, opt)
	file := filepath.Join(cacheDir, privcache.FileName("sessions", key))
	old := loadListCache(file, key, opt)

	items := make([]ListItem, len(cands))
	stamps := make([]fileStamp, len(cands))
	stamped := make([]bool, len(cands))
	var misses []int
	missed := make([]bool, len(cands))
	statAll(cands, stamps, stamped, opt.Workers)
	for i, c := range cands {
		st, ok := stamps[i], stamped[i]
		if e, hit := old[c.path]; ok && hit && e.stamp == st {
			items[i] = e.item
			items[i].Path = c.path
			continue
		}
		misses = append(misses, i)
		missed[i] = true
	}
	done := make([]bool, len(cands))
	summarizeEach(cands, misses, items, done, opt, deadline)
	fresh := make(map[string]cachedItem, len(cands))
	complete := true
	for i, c := range cands {
		if missed[i] && !done[i] {
			complete = false
			continue
		}
		if !stamped[i] {
			continue
		}
		// Kept only when the read saw the file as stamped before it.
		if it := &items[i]; it.Size == stamps[i].size && it.ModTime.UnixNano() == stamps[i].mtime {
			fresh[c.path] = cachedItem{stamps[i], *it}
		}
	}
	changed := len(fresh) != len(old)
	for path, e := range fresh {
		if o, ok := old[path]; !changed && (!ok || o.stamp != e.stamp) {
			changed = true
		}
	}
	// Files that cannot be stamped (a dangling link) are read every time
	// but do not rewrite the cache every time.
	if changed {
		_ = saveListCache(cacheDir, file, key, fresh)
	}
	if !complete {
		return nil, ErrListDeadline
	}
	for i, c := range cands {
		items[i].Source = c.source
		items[i].HasAgentTree = items[i].ID != "" && c.trees[items[i].ID]
	}
	return keepAndSort(cands, items, opt), nil
}

// summarizeEach summarizes cands[i] into items[i] for each i of which on
// a bounded worker pool, marking done[i]; with a non-zero deadline no new
// file is started after it.
func summarizeEach(cands []candidate, which []int, items []ListItem, done []bool, opt ListOptions, deadline time.Time) {
	var next sync.Mutex
	idx := 0
	var wg sync.WaitGroup
	for w := 0; w < min(opt.Workers, max(len(which), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, opt.HeadBytes+opt.TailBytes)
			for {
				next.Lock()
				k := idx
				idx++
				next.Unlock()
				if k >= len(which) || (!deadline.IsZero() && time.Now().After(deadline)) {
					return
				}
				i := which[k]
				if onSummarize != nil {
					onSummarize(cands[i].path)
				}
				items[i] = summarize(cands[i].path, buf, opt)
				done[i] = true
			}
		}()
	}
	wg.Wait()
}

// onSummarize, when set (by tests), is told of every file read.
var onSummarize func(path string)

// listCacheKey names what a cache file is for: the directories listed,
// the cwd a custom directory's files must have, and the window options.
func listCacheKey(defDir, customDir, wantCwd string, opt ListOptions) string {
	return fmt.Sprintf("%q %q %q %d %d %d", defDir, customDir, wantCwd, opt.HeadBytes, opt.TailBytes, opt.FirstMessageMax)
}

// loadListCache reads a cache file; anything wrong with it gives an
// empty cache.
func loadListCache(file, key string, opt ListOptions) map[string]cachedItem {
	data := privcache.Read(file, listCacheMaxBytes)
	if data == nil {
		return nil
	}
	m, err := decodeListCache(data, key, opt)
	if err != nil {
		return nil
	}
	return m
}

// saveListCache writes the cache whole: temp file, fsync, rename.
func saveListCache(dir, file, key string, entries map[string]cachedItem) error {
	if err := privcache.Write(dir, file, ".sessions-*.tmp", encodeListCache(key, entries)); err != nil {
		return fmt.Errorf("list cache: %w", err)
	}
	return nil
}

// encodeListCache is the cache file: the magic, the key, the entries
// (length-prefixed strings and varints), and a CRC-32 of all before it.
func encodeListCache(key string, entries map[string]cachedItem) []byte {
	var b []byte
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	num := func(n int64) { b = binary.AppendVarint(b, n) }
	flag := func(v bool) {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	b = append(b, listCacheMagic...)
	str(key)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for path, e := range entries {
		it := &e.item
		str(path)
		num(e.stamp.size)
		num(e.stamp.mtime)
		num(e.stamp.ino)
		num(e.stamp.ctime)
		str(it.ID)
		str(it.Cwd)
		str(it.Created)
		str(it.ParentSession)
		num(it.LastActivity.UnixNano())
		flag(it.LastActivityFromMtime)
		str(it.Name)
		str(it.NameStatus)
		str(it.FirstMessage)
		str(it.FirstMessageStatus)
		num(int64(it.MessageCount))
		flag(it.MessageCountExact)
		num(it.Size)
		num(it.ModTime.UnixNano())
		str(it.Problem)
		b = binary.AppendUvarint(b, uint64(len(it.Notes)))
		for _, n := range it.Notes {
			str(n)
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// errBadListCache is any cache file this version did not write for this key.
var errBadListCache = errors.New("not a usable session list cache")

// decodeListCache parses a cache file written for key and opt. Every
// entry must be one discovery could have produced: known statuses, a
// first message with no control characters, times that round-trip.
func decodeListCache(data []byte, key string, opt ListOptions) (map[string]cachedItem, error) {
	if len(data) < len(listCacheMagic)+4 || !bytes.HasPrefix(data, []byte(listCacheMagic)) {
		return nil, errBadListCache
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errBadListCache
	}
	r := cacheReader{b: body[len(listCacheMagic):]}
	if r.str() != key {
		return nil, errBadListCache
	}
	n := r.count()
	out := make(map[string]cachedItem, min(n, 1<<16))
	for i := 0; i < n && r.err == nil; i++ {
		path := r.str()
		var e cachedItem
		e.stamp = fileStamp{r.num(), r.num(), r.num(), r.num()}
		it := &e.item
		it.ID, it.Cwd, it.Created, it.ParentSession = r.str(), r.str(), r.str(), r.str()
		activity := r.num()
		it.LastActivityFromMtime = r.flag()
		it.Name, it.NameStatus = r.str(), r.str()
		it.FirstMessage, it.FirstMessageStatus = r.str(), r.str()
		it.MessageCount = int(r.num())
		it.MessageCountExact = r.flag()
		it.Size = r.num()
		it.ModTime = time.Unix(0, r.num())
		it.Problem = r.str()
		if notes := r.count(); notes > 0 {
			it.Notes = make([]string, 0, min(notes, 64))
			for j := 0; j < notes && r.err == nil; j++ {
				it.Notes = append(it.Notes, r.str())
			}
		}
		if it.LastActivityFromMtime {
			it.LastActivity = it.ModTime
		} else {
			it.LastActivity = time.Unix(0, activity).UTC()
		}
		if r.err != nil || !validStatus(it.NameStatus) || !validStatus(it.FirstMessageStatus) ||
			sanitize.HasControl(it.FirstMessage) || len([]rune(it.FirstMessage)) > opt.FirstMessageMax+1 ||
			it.Size != e.stamp.size || it.ModTime.UnixNano() != e.stamp.mtime || it.Size < 0 || it.MessageCount < 0 {
			return nil, errBadListCache
		}
		out[path] = e
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadListCache
	}
	return out, nil
}

func validStatus(s string) bool {
	return s == StatusFound || s == StatusNone || s == StatusNotInWindow
}

// cacheReader reads the cache's fields; the first fault sticks.
type cacheReader struct {
	b   []byte
	err error
}

func (r *cacheReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errBadListCache
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) num() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errBadListCache
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count is a length that must fit in what is left.
func (r *cacheReader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.b)) {
		r.err = errBadListCache
		return 0
	}
	return int(v)
}

func (r *cacheReader) str() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *cacheReader) flag() bool {
	if r.err != nil || len(r.b) == 0 {
		r.err = errBadListCache
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	if v > 1 {
		r.err = errBadListCache
	}
	return v == 1
}

// statAll stamps every candidate, in parallel: a stat is a system call,
// and with thousands of files they are most of a cached listing's time.
func statAll(cands []candidate, stamps []fileStamp, stamped []bool, workers int) {
	var wg sync.WaitGroup
	per := (len(cands) + workers - 1) / max(workers, 1)
	for lo := 0; lo < len(cands); lo += max(per, 1) {
		hi := min(lo+max(per, 1), len(cands))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				stamps[i], stamped[i] = statStamp(cands[i].path)
			}
		}()
	}
	wg.Wait()
}

// statStamp is a file's stamp as the cache keys it (following symbolic
// links, as opening it does); false when it cannot be had.
func statStamp(path string) (fileStamp, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileStamp{}, false
	}
	st := fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	st.ino, st.ctime = inodeStamp(fi)
	return st, true
}
