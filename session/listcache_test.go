package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// cacheProject writes a project of sessions: plain ones, a named one, one
// larger than the test's windows, an empty file and one that is not a
// session, and returns its locations and cwd.
func cacheProject(t *testing.T) (Locations, string, string) {
	t.Helper()
	agent, cwd := t.TempDir(), "/work/project"
	loc := Locations{AgentDir: agent}
	dir := loc.DefaultSessionDir(cwd, "")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		id := fmt.Sprintf("01a2297e-0000-7000-8000-%012d", i)
		var b strings.Builder
		fmt.Fprintf(&b, `{"type":"session","version":3,"id":%q,"timestamp":"2026-11-0%dT10:00:00.000Z","cwd":%q}`+"\n", id, i+1, cwd)
		question := fmt.Sprintf("question %d", i)
		if i == 4 { // clipped to FirstMessageMax
			question += strings.Repeat(" and then some", 30)
		}
		fmt.Fprintf(&b, `{"type":"message","id":"u%d","parentId":null,"timestamp":"2026-11-0%dT10:00:01.000Z","message":{"role":"user","content":%q,"timestamp":%d}}`+"\n", i, i+1, question, 1793700000000+i*1000)
		if i == 2 {
			b.WriteString(`{"type":"session_info","id":"n1","parentId":"u2","timestamp":"2026-11-03T10:00:02.000Z","name":"Named \u001b[31mred"}` + "\n")
		}
		if i == 3 { // past the test's 1 KiB windows
			for k := 0; k < 40; k++ {
				fmt.Fprintf(&b, `{"type":"message","id":"a%d","parentId":"u3","timestamp":"2026-11-04T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"%s"}]}}`+"\n", k, strings.Repeat("x", 60))
			}
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("2026-11-0%dT10-00-00-000Z_%s.jsonl", i+1, id)), b.String())
	}
	writeFile(t, filepath.Join(dir, "empty.jsonl"), "")
	writeFile(t, filepath.Join(dir, "junk.jsonl"), "not json\n")
	return loc, cwd, dir
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// countReads counts the files summarized while the test runs.
func countReads(t *testing.T) func() []string {
	t.Helper()
	var mu sync.Mutex
	var read []string
	onSummarize = func(p string) {
		mu.Lock()
		read = append(read, filepath.Base(p))
		mu.Unlock()
	}
	t.Cleanup(func() { onSummarize = nil })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := append([]string(nil), read...)
		sort.Strings(out)
		read = read[:0]
		return out
	}
}

var cacheOpt = ListOptions{HeadBytes: 1 << 10, TailBytes: 1 << 10}

// sameListing fails unless the cached listing equals ListCwd's, field for field.
func sameListing(t *testing.T, loc Locations, cwd, cache string) []ListItem {
	t.Helper()
	got, err := ListCwdCached(loc, cwd, cacheOpt, cache, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ListCwd(loc, cwd, cacheOpt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cached listing differs from ListCwd:\n got %+v\nwant %+v", got, want)
	}
	return got
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*"))
	return m
}

func TestListCacheHitMissInvalidation(t *testing.T) {
	loc, cwd, dir := cacheProject(t)
	cache := filepath.Join(t.TempDir(), "forgebench")
	reads := countReads(t)

	items := sameListing(t, loc, cwd, cache)
	if len(items) != 8 {
		t.Fatalf("listed %d items", len(items))
	}
	if got := reads(); len(got) != 8*2 { // cached listing and ListCwd
		t.Fatalf("cold: read %v", got)
	}
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file mode: %v %v", fi.Mode(), err)
	}

	// A dangling link is listed (with its problem) and read each time,
	// but does not make each listing rewrite the cache.
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling.jsonl")); err != nil {
		t.Fatal(err)
	}
	sameListing(t, loc, cwd, cache)
	reads()
	before, _ := os.Stat(cacheFiles(t, cache)[0])
	sameListing(t, loc, cwd, cache)
	if after, _ := os.Stat(cacheFiles(t, cache)[0]); !os.SameFile(before, after) {
		t.Fatal("an unchanged project rewrote the cache")
	}
	if err := os.Remove(filepath.Join(dir, "dangling.jsonl")); err != nil {
		t.Fatal(err)
	}
	reads()

	// Warm: nothing read but by ListCwd.
	sameListing(t, loc, cwd, cache)
	if got := reads(); len(got) != 8 {
		t.Fatalf("warm: read %v, want only ListCwd's 8", got)
	}

	// A file grows: it alone is read again, and its new name is listed.
	grown := filepath.Join(dir, "2026-11-02T10-00-00-000Z_01a2297e-0000-7000-8000-000000000001.jsonl")
	f, err := os.OpenFile(grown, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"session_info","id":"n9","parentId":"u1","timestamp":"2026-11-02T10:00:09.000Z","name":"Grown"}` + "\n")
	f.Close()
	onSummarize = nil
	got, err := ListCwdCached(loc, cwd, cacheOpt, cache, time.Time{})
	reads = countReads(t)
	if err != nil {
		t.Fatal(err)
	}
	if it := findItem(t, got, "01a2297e-0000-7000-8000-000000000001"); it.Name != "Grown" {
		t.Fatalf("grown file: name %q", it.Name)
	}
	sameListing(t, loc, cwd, cache)
	reads()

	// Again, counting: after the growth only the grown file was read.
	f, _ = os.OpenFile(grown, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"session_info","id":"n10","parentId":"n9","timestamp":"2026-11-02T10:00:10.000Z","name":"Grown again"}` + "\n")
	f.Close()
	if _, err := ListCwdCached(loc, cwd, cacheOpt, cache, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := reads(); !reflect.DeepEqual(got, []string{filepath.Base(grown)}) {
		t.Fatalf("after growth read %v", got)
	}

	// A file deleted: dropped from the listing and from the cache.
	if err := os.Remove(grown); err != nil {
		t.Fatal(err)
	}
	items = sameListing(t, loc, cwd, cache)
	if len(items) != 7 {
		t.Fatalf("after delete: %d items", len(items))
	}
	data, _ := os.ReadFile(cacheFiles(t, cache)[0])
	if bytes.Contains(data, []byte(filepath.Base(grown))) {
		t.Fatal("the deleted file is still in the cache")
	}
}

func TestListCacheCorruptOrForeignIsIgnored(t *testing.T) {
	loc, cwd, _ := cacheProject(t)
	cache := filepath.Join(t.TempDir(), "forgebench")
	sameListing(t, loc, cwd, cache)
	file := cacheFiles(t, cache)[0]
	good, _ := os.ReadFile(file)

	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x20
	hostile := bytes.Replace(good, []byte("question 4"), []byte("\x1b]0;pwn\x07 4"), 1)
	for name, data := range map[string][]byte{
		"garbage":     []byte("\x00\xff garbage"),
		"empty":       nil,
		"truncated":   good[:len(good)-9],
		"a bit flips": flipped,
		"hostile":     hostile, // the checksum fails first; reencoded below
		"other magic": append([]byte("forgebench list cache 0\n"), good[len(listCacheMagic):]...),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(file, data, 0o600); err != nil {
				t.Fatal(err)
			}
			reads := countReads(t)
			sameListing(t, loc, cwd, cache)
			if got := reads(); len(got) != 16 {
				t.Fatalf("a bad cache was used: read %v", got)
			}
			// Rebuilt: the next listing reads only for ListCwd.
			sameListing(t, loc, cwd, cache)
			if got := reads(); len(got) != 8 {
				t.Fatalf("not rebuilt: read %v", got)
			}
		})
	}

	// A well-formed cache with a value discovery cannot produce (a
	// terminal escape in a first message), or written for another
	// project or other windows, is not used.
	key := listCacheKey(loc.DefaultSessionDir(cwd, ""), "", "", cacheOpt.withDefaults())
	entries, err := decodeListCache(good, key, cacheOpt.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	for path, e := range entries {
		e.item.FirstMessage = "\x1b]0;pwn\x07"
		entries[path] = e
		break
	}
	for name, data := range map[string][]byte{
		"escape in a first message": encodeListCache(key, entries),
		"another project's":         encodeListCache(key+"x", entries),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := decodeListCache(data, key, cacheOpt.withDefaults()); !errors.Is(err, errBadListCache) {
				t.Fatalf("decoded: %v", err)
			}
			os.WriteFile(file, data, 0o600)
			reads := countReads(t)
			sameListing(t, loc, cwd, cache)
			if got := reads(); len(got) != 16 {
				t.Fatalf("a bad cache was used: read %v", got)
			}
		})
	}
}

func TestListCacheDeadlineKeepsWhatWasRead(t *testing.T) {
	loc, cwd, _ := cacheProject(t)
	cache := filepath.Join(t.TempDir(), "forgebench")
	reads := countReads(t)
	if items, err := ListCwdCached(loc, cwd, cacheOpt, cache, time.Now().Add(-time.Second)); !errors.Is(err, ErrListDeadline) || items != nil {
		t.Fatalf("past deadline: %v, %d items", err, len(items))
	}
	if got := reads(); len(got) != 0 {
		t.Fatalf("read past the deadline: %v", got)
	}
	// Part read: one file is read before the deadline passes (the first
	// read waits for it), and the next listing reads only the rest.
	deadline := time.Now().Add(500 * time.Millisecond)
	first := true
	onSummarize = func(string) {
		if first {
			first = false
			time.Sleep(time.Until(deadline) + time.Millisecond)
		}
	}
	cacheOptOne := cacheOpt
	cacheOptOne.Workers = 1
	if _, err := ListCwdCached(loc, cwd, cacheOptOne, cache, deadline); !errors.Is(err, ErrListDeadline) {
		t.Fatalf("a listing past its deadline: %v", err)
	}
	reads = countReads(t)
	if _, err := ListCwdCached(loc, cwd, cacheOptOne, cache, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := reads(); len(got) != 7 {
		t.Fatalf("after one file read before the deadline, read %v", got)
	}
}

func FuzzDecodeListCache(f *testing.F) {
	key := listCacheKey("/a", "", "", cacheOpt.withDefaults())
	mt := time.Unix(1793700000, 5)
	f.Add(encodeListCache(key, map[string]cachedItem{
		"/a/x.jsonl": {fileStamp{10, mt.UnixNano(), 3, 4}, ListItem{ID: "x", Size: 10, ModTime: mt, LastActivity: mt, LastActivityFromMtime: true,
			NameStatus: StatusFound, Name: "n", FirstMessageStatus: StatusNone, Notes: []string{"a note"}}},
	}))
	f.Add([]byte(listCacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// As given, and as the entries of a file with a good checksum.
		framed := binary.AppendUvarint([]byte(listCacheMagic), uint64(len(key)))
		framed = append(append(framed, key...), data...)
		framed = binary.LittleEndian.AppendUint32(framed, crc32.ChecksumIEEE(framed))
		m, err := decodeListCache(data, key, cacheOpt.withDefaults())
		if err != nil {
			if m, err = decodeListCache(framed, key, cacheOpt.withDefaults()); err != nil {
				return
			}
		}
		// What decodes encodes back to a cache that decodes the same.
		again, err := decodeListCache(encodeListCache(key, m), key, cacheOpt.withDefaults())
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
