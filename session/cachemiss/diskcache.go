package cachemiss

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"
	"unsafe"

	"github.com/forgebench/forgebench/internal/privcache"

	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// The report cache: each session file's part of the cache report (its
// totals, breaks and causes), kept between runs and keyed per file by
// path, size, modification time (and, on Linux, inode and change time),
// so that a report over a project's thousands of sessions reads only the
// files that changed since the last one. Pi only appends to a session, and
// any append changes its size and time.
//
// A file's part is kept only when it depends on nothing else this package
// cannot see: pi-forge never wrote to the file (pi-forge's rewrite reads
// the Preset library, which may have changed since) and no Forge rewrote
// one of its requests. What the parts depend on beyond the files — the
// program itself (the executable's size and time) and the caller's key
// (the model catalog: models.json) — names the cache; another program or
// another catalog reads another cache file.
//
// The cache is never trusted blindly: a file that is not this format,
// was written under another key, fails its checksum, holds a cause kind
// the report does not have, or (on unix) belongs to another user is
// ignored and replaced. It is written whole, temp file + fsync + rename,
// mode 0600; deleting it costs one slow report.

// reportCacheMagic opens every cache file; the digit is the format version.
const reportCacheMagic = "forgebench cache report 1\n"

// reportCacheMaxBytes bounds a cache file read (2,000 sessions with 56,000
// breaks take a few MiB).
const reportCacheMaxBytes = 256 << 20

// reportCacheMaxFiles bounds the files one cache keeps: the files of this
// report always, others from earlier reports while the total stays below.
const reportCacheMaxFiles = 20000

// ReportCache says where ReportFilesCached keeps the files' parts.
type ReportCache struct {
	// Dir is the cache's directory ("": no cache, every file is read).
	Dir string
	// Key names what else the results depend on that the files do not
	// say: the model catalog the requests are priced with (its
	// models.json). Another key is another cache file.
	Key string
}

// ListProject lists the sessions of the project at cwd as the cache
// report does: through the listing cache in privcache.Dir (session.ListCwd
// when there is none).
func ListProject(loc session.Locations, cwd string, opt session.ListOptions) ([]session.ListItem, error) {
	if dir := privcache.Dir(); dir != "" {
		return session.ListCwdCached(loc, cwd, opt, dir, time.Time{})
	}
	return session.ListCwd(loc, cwd, opt)
}

// UserReportCache is the report cache the cache report and the Payloads
// panel's cache view share: privcache.Dir (no cache when there is none), under
// a key naming the model catalog the breaks are priced with — the content
// of <agentDir>/models.json, or its absence. A models.json that cannot be
// read now gives no cache: nothing to key on.
func UserReportCache(agentDir string) ReportCache {
	dir := privcache.Dir()
	if dir == "" {
		return ReportCache{}
	}
	key := "models.json: none"
	if agentDir != "" {
		data, err := regfile.Read(filepath.Join(agentDir, catalog.ModelsFile), catalog.MaxModelsFileBytes)
		switch {
		case err == nil:
			sum := sha256.Sum256(data)
			key = "models.json: " + hex.EncodeToString(sum[:])
		case !errors.Is(err, fs.ErrNotExist):
			return ReportCache{}
		}
	}
	return ReportCache{Dir: dir, Key: key}
}

// fileStamp identifies one version of a file.
type fileStamp struct {
	size, mtime, ino, ctime int64
}

// statStamp is the file's stamp (following symbolic links, as opening it
// does); false when it has none.
func statStamp(path string) (fileStamp, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileStamp{}, false
	}
	st := fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	st.ino, st.ctime = inodeStamp(fi)
	return st, true
}

// cachedPart is one file's part of a report as the cache keeps it.
type cachedPart struct {
	stamp fileStamp
	part  Report
}

// ReportFilesCached is ReportFiles through the report cache in cache.Dir:
// the report equals ReportFiles' (a test holds it), but only the files
// that changed since the cache was written, and those whose parts the
// cache may not keep, are read. The cache is rewritten when it changed.
func ReportFilesCached(files []string, opts replay.RequestOptions, open func(string) (*session.Session, error), cache ReportCache) (*Report, []string) {
	return ReportFilesCachedStop(files, opts, open, cache, nil)
}

// ReportFilesCachedStop is ReportFilesCached that ends between files once
// stop (nil: never) returns true, as ReportFiles does; a report that
// stopped is partial and leaves the cache as it was.
func ReportFilesCachedStop(files []string, opts replay.RequestOptions, open func(string) (*session.Session, error), cache ReportCache, stop func() bool) (*Report, []string) {
	key, ok := reportCacheKey(cache.Key)
	if cache.Dir == "" || !ok {
		return ReportFiles(files, opts, open, stop)
	}
	file := filepath.Join(cache.Dir, privcache.FileName("cache-report", key))
	old := loadReportCache(file, key)
	parts := make([]Report, len(files))
	stamps := make([]fileStamp, len(files))
	stamped := make([]bool, len(files))
	skip := make([]bool, len(files))
	for i, f := range files {
		stamps[i], stamped[i] = statStamp(f)
		if e, hit := old[f]; hit && stamped[i] && e.stamp == stamps[i] {
			parts[i] = e.part // its breaks name f: the cache's key
			skip[i] = true
		}
	}
	own := make([]bool, len(files))
	errs := analyzeEach(files, opts, open, stop, parts, skip, own)
	if stop != nil && stop() {
		return mergeParts(files, parts, errs)
	}
	fresh := make(map[string]cachedPart, len(files))
	changed := false
	for i, f := range files {
		if skip[i] {
			fresh[f] = old[f]
			continue
		}
		if _, was := old[f]; was {
			changed = true
		}
		// Kept only when the file is as it was stamped before the read.
		if errs[i] == nil && own[i] && stamped[i] {
			if st, ok := statStamp(f); ok && st == stamps[i] {
				fresh[f] = cachedPart{stamps[i], parts[i]}
				changed = true
			}
		}
	}
	for path, e := range old {
		if _, in := fresh[path]; in {
			continue
		}
		if len(fresh) >= reportCacheMaxFiles {
			changed = true // an earlier report's files make room
			break
		}
		fresh[path] = e
	}
	rep, problems := mergeParts(files, parts, errs)
	if changed {
		_ = saveReportCache(cache.Dir, file, key, fresh)
	}
	return rep, problems
}

// reportCacheKey is what a cache file is for: this format, this program
// (its executable's path, size and modification time) and the caller's
// key; false when the program cannot be told apart.
func reportCacheKey(callerKey string) (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%q %q %d %d %q", reportCacheMagic, exe, fi.Size(), fi.ModTime().UnixNano(), callerKey), true
}

// loadReportCache reads a cache file; anything wrong with it gives an
// empty cache.
func loadReportCache(file, key string) map[string]cachedPart {
	data := privcache.Read(file, reportCacheMaxBytes)
	if data == nil {
		return nil
	}
	m, err := decodeReportCache(data, key)
	if err != nil {
		return nil
	}
	return m
}

// saveReportCache writes the cache whole: temp file, fsync, rename.
func saveReportCache(dir, file, key string, entries map[string]cachedPart) error {
	if err := privcache.Write(dir, file, ".cache-report-*.tmp", encodeReportCache(key, entries)); err != nil {
		return fmt.Errorf("report cache: %w", err)
	}
	return nil
}

// cacheWriter writes the cache's fields; strings go through a table (a
// string seen before is its number: models, kinds and details repeat
// across thousands of breaks).
type cacheWriter struct {
	b     []byte
	table map[string]uint64
}

func (w *cacheWriter) uvarint(n uint64) { w.b = binary.AppendUvarint(w.b, n) }
func (w *cacheWriter) varint(n int64)   { w.b = binary.AppendVarint(w.b, n) }
func (w *cacheWriter) float(f float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(f))
}
func (w *cacheWriter) raw(s string) { w.uvarint(uint64(len(s))); w.b = append(w.b, s...) }

// str writes 0 and the text for a string not seen yet, else its number.
func (w *cacheWriter) str(s string) {
	if n, ok := w.table[s]; ok {
		w.uvarint(n)
		return
	}
	w.uvarint(0)
	w.raw(s)
	w.table[s] = uint64(len(w.table) + 1)
}

func (w *cacheWriter) flags(bits ...bool) {
	var v byte
	for i, b := range bits {
		if b {
			v |= 1 << i
		}
	}
	w.b = append(w.b, v)
}

// encodeReportCache is the cache file: the magic, the key, the files'
// parts, and a CRC-32 of all before it.
func encodeReportCache(key string, entries map[string]cachedPart) []byte {
	w := &cacheWriter{table: map[string]uint64{}}
	size := len(reportCacheMagic) + len(key) + 16
	for path, e := range entries {
		size += len(path) + 96 + 128*len(e.part.Breaks) // most strings are table numbers
	}
	w.b = make([]byte, 0, size)
	w.b = append(w.b, reportCacheMagic...)
	w.raw(key)
	paths := make([]string, 0, len(entries))
	for p := range entries {
		paths = append(paths, p)
	}
	slices.Sort(paths) // the same cache, the same bytes
	w.uvarint(uint64(len(paths)))
	for _, path := range paths {
		e := entries[path]
		r := &e.part
		w.raw(path)
		w.varint(e.stamp.size)
		w.varint(e.stamp.mtime)
		w.varint(e.stamp.ino)
		w.varint(e.stamp.ctime)
		w.varint(int64(r.Sessions))
		w.varint(int64(r.Requests))
		for _, f := range [...]float64{r.Tokens.Input, r.Tokens.Output, r.Tokens.CacheRead, r.Tokens.CacheWrite, r.Tokens.CacheWrite1h, r.Needed} {
			w.float(f)
		}
		w.uvarint(uint64(len(r.Breaks)))
		for i := range r.Breaks {
			b := &r.Breaks[i]
			m := &b.Miss
			w.str(b.SessionID)
			w.str(b.Timestamp)
			w.varint(int64(m.Index))
			w.varint(int64(m.PreviousIndex))
			w.raw(m.EntryID)
			w.raw(m.PreviousEntryID)
			w.str(m.Provider)
			w.str(m.Model)
			w.str(m.PreviousModel)
			w.flags(m.LongRetention, m.ModelChanged, m.CostKnown)
			for _, f := range [...]float64{m.TimestampMs, m.IdleMs, m.MissedTokens, m.MissedCost,
				m.Usage.Input, m.Usage.Output, m.Usage.CacheRead, m.Usage.CacheWrite, m.Usage.CacheWrite1h} {
				w.float(f)
			}
			w.str(b.Cause.Kind)
			w.str(b.Cause.Detail)
			w.str(b.Cause.Ref)
			w.uvarint(uint64(len(b.Cause.Also)))
			for _, k := range b.Cause.Also {
				w.str(k)
			}
		}
	}
	return binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(w.b))
}

// errBadReportCache is any cache file this version did not write for this key.
var errBadReportCache = errors.New("not a usable cache report file")

// decodeReportCache parses a cache file written for key. The strings it
// returns share data's memory (tens of thousands of entry ids, copied one
// by one, were most of a warm report's decoding): data must not change
// afterwards.
func decodeReportCache(data []byte, key string) (map[string]cachedPart, error) {
	if len(data) < len(reportCacheMagic)+4 || !bytes.HasPrefix(data, []byte(reportCacheMagic)) {
		return nil, errBadReportCache
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errBadReportCache
	}
	r := &cacheReader{b: body[len(reportCacheMagic):]}
	if r.raw() != key {
		return nil, errBadReportCache
	}
	kinds := map[string]bool{}
	for _, k := range Kinds {
		kinds[k] = true
	}
	n := r.count()
	out := make(map[string]cachedPart, min(n, 1<<16))
	for i := 0; i < n && r.err == nil; i++ {
		path := r.raw()
		var e cachedPart
		e.stamp = fileStamp{r.varint(), r.varint(), r.varint(), r.varint()}
		p := &e.part
		p.Sessions, p.Requests = int(r.varint()), int(r.varint())
		p.Tokens.Input, p.Tokens.Output, p.Tokens.CacheRead = r.float(), r.float(), r.float()
		p.Tokens.CacheWrite, p.Tokens.CacheWrite1h, p.Needed = r.float(), r.float(), r.float()
		nb := r.count()
		if nb > 0 {
			p.Breaks = make([]Break, 0, nb)
		}
		for j := 0; j < nb && r.err == nil; j++ {
			var b Break
			m := &b.Miss
			b.File = path
			b.SessionID, b.Timestamp = r.str(), r.str()
			m.Index, m.PreviousIndex = int(r.varint()), int(r.varint())
			m.EntryID, m.PreviousEntryID = r.raw(), r.raw()
			m.Provider, m.Model, m.PreviousModel = r.str(), r.str(), r.str()
			fl := r.byte()
			m.LongRetention, m.ModelChanged, m.CostKnown = fl&1 != 0, fl&2 != 0, fl&4 != 0
			m.TimestampMs, m.IdleMs, m.MissedTokens, m.MissedCost = r.float(), r.float(), r.float(), r.float()
			m.Usage.Input, m.Usage.Output, m.Usage.CacheRead = r.float(), r.float(), r.float()
			m.Usage.CacheWrite, m.Usage.CacheWrite1h = r.float(), r.float()
			b.Cause.Kind, b.Cause.Detail, b.Cause.Ref = r.str(), r.str(), r.str()
			if na := r.count(); na > 0 {
				b.Cause.Also = make([]string, 0, min(na, len(Kinds)))
				for k := 0; k < na && r.err == nil; k++ {
					also := r.str()
					if !kinds[also] {
						r.err = errBadReportCache
					}
					b.Cause.Also = append(b.Cause.Also, also)
				}
			}
			if !kinds[b.Cause.Kind] || m.Index < 0 || m.PreviousIndex < 0 || fl > 7 {
				r.err = errBadReportCache
			}
			p.Breaks = append(p.Breaks, b)
		}
		if p.Sessions < 0 || p.Requests < 0 || e.stamp.size < 0 {
			r.err = errBadReportCache
		}
		out[path] = e
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadReportCache
	}
	return out, nil
}

// cacheReader reads the cache's fields; the first fault sticks.
type cacheReader struct {
	b     []byte
	err   error
	table []string
}

func (r *cacheReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errBadReportCache
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errBadReportCache
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) float() float64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errBadReportCache
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return f
}

func (r *cacheReader) byte() byte {
	if r.err != nil || len(r.b) < 1 {
		r.err = errBadReportCache
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// count is a length that must fit in what is left.
func (r *cacheReader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.b)) {
		r.err = errBadReportCache
		return 0
	}
	return int(v)
}

// raw reads a length-prefixed string, sharing the file's memory.
func (r *cacheReader) raw() string {
	n := r.count()
	if r.err != nil || n == 0 {
		return ""
	}
	s := unsafe.String(&r.b[0], n)
	r.b = r.b[n:]
	return s
}

// str reads a string written by cacheWriter.str: a new one (0, then its
// text) joins the table, a number names one read before.
func (r *cacheReader) str() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n == 0 {
		s := r.raw()
		if r.err == nil {
			r.table = append(r.table, s)
		}
		return s
	}
	if n > uint64(len(r.table)) {
		r.err = errBadReportCache
		return ""
	}
	return r.table[n-1]
}
