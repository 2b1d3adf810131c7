//go:build linux && (amd64 || arm64)

package session

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only (MAP_PRIVATE, PROT_READ)
// and returns them as a slice. The mapping is placed over a heap
// allocation of the same size (anchor), so the garbage collector keeps it alive
// exactly as long as anything — an Entry's Raw, a RawValue, a string made
// from the bytes with unsafe.String — points into it, as it did for read
// chunks. The allocation is fresh heap address space the runtime has not
// touched (a new process's heap grows for it), so it costs no page faults;
// the mapping replaces its pages, and a finalizer puts anonymous memory
// back before the runtime frees the allocation. The runtime never reads or
// writes a live pointer-free object, so the mapped pages are only ever
// touched by the code that reads the session.
//
// Only linux/amd64 and linux/arm64 map (the raw mmap calls below use their
// system call numbers); other platforms read.
func mapFile(f *os.File, path string, size int64) ([]byte, *mapping, error) {
	if size <= 0 || uint64(size) > uint64(^uintptr(0)>>2) {
		return nil, nil, fmt.Errorf("map %s: size %d", path, size)
	}
	page := uintptr(os.Getpagesize())
	length := (uintptr(size) + page - 1) &^ (page - 1)
	buf := unsafe.Slice(anchor(int(length+page)), length+page) // the slack lets the mapping start on an OS page
	off := (page - uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%page) % page
	data := buf[off : off+length : off+length]
	if err := mmapFileOver(data, f.Fd()); err != nil {
		// A failed MAP_FIXED may leave the range unmapped: put anonymous
		// memory back, or keep the allocation forever rather than let the
		// runtime reuse a hole.
		if anonPages(addrOf(data), length) != nil {
			leak(unsafe.SliceData(buf))
		}
		return nil, nil, fmt.Errorf("map %s: %w", path, err)
	}
	// The caller closes its descriptor after reading; the mapping keeps a
	// duplicate to learn the file's size when healing.
	var own *os.File
	if fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0); err == nil {
		own = os.NewFile(uintptr(fd), path)
	}
	m := &mapping{addr: addrOf(data), length: length, valid: length, size: size, path: path, f: own}
	runtime.SetFinalizer(unsafe.SliceData(buf), m.release)
	register(m)
	return data[:size:size], m, nil
}

// anchor allocates n pointer-free heap bytes without zeroing them
// (strings.Builder grows with an allocation the runtime does not clear):
// make would clear a range the heap reuses, faulting in as much private
// memory as the file is large only for the mapping to replace it. The
// contents are never read.
func anchor(n int) *byte {
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0)
	return unsafe.StringData(b.String())
}

// release runs as the allocation's finalizer (p is its first byte): the
// mapping is replaced by anonymous memory before the runtime frees and
// reuses the allocation.
func (m *mapping) release(p *byte) {
	unregister(m)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.released = true
	if anonPages(m.addr, m.length) != nil {
		// The runtime must not get back memory it cannot write: keep the
		// allocation for the life of the process.
		leak(p)
	}
	if m.f != nil {
		m.f.Close()
	}
}

// mmapFileOver maps the file behind fd read-only over data, which is
// page-aligned and page-sized. It issues the system call itself rather
// than through unix.MmapPtr: MmapPtr converts the address the kernel
// returns back into an unsafe.Pointer, and that address is inside a heap
// allocation, which the checkptr instrumentation (on under -race) rejects
// as a pointer made from an integer. The result is not needed — with
// MAP_FIXED it is data's own address, kept alive by the caller — so the
// pointer only goes out, converted in the call expression as the unsafe
// rules for system calls allow.
func mmapFileOver(data []byte, fd uintptr) error {
	_, _, errno := unix.Syscall6(unix.SYS_MMAP, uintptr(unsafe.Pointer(unsafe.SliceData(data))), uintptr(len(data)),
		uintptr(unix.PROT_READ), uintptr(unix.MAP_PRIVATE|unix.MAP_FIXED), fd, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// mmapFixed maps anonymous memory over [addr, addr+length). It takes the
// address as an integer: the range belongs to a heap allocation this
// package keeps alive (or is releasing), never to a pointer it holds.
func mmapFixed(addr, length uintptr, prot int) error {
	_, _, errno := unix.Syscall6(unix.SYS_MMAP, addr, length, uintptr(prot),
		uintptr(unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED), ^uintptr(0), 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// anonPages replaces a range by private anonymous read-write memory, as the
// runtime expects its heap to be.
func anonPages(addr, length uintptr) error {
	return mmapFixed(addr, length, unix.PROT_READ|unix.PROT_WRITE)
}

// zeroPages replaces a range of a mapping by zero pages (reads only).
func zeroPages(addr, length uintptr) error { return mmapFixed(addr, length, unix.PROT_READ) }

// dropPages tells the kernel the pages wholly inside b are not needed for
// now (a skipped huge line): they leave the resident set and are read from
// the page cache again if touched.
func dropPages(b []byte) {
	page := uintptr(os.Getpagesize())
	if uintptr(len(b)) < 2*page {
		return
	}
	head := (page - addrOf(b)%page) % page
	tail := (addrOf(b) + uintptr(len(b))) % page
	_ = unix.Madvise(b[head:uintptr(len(b))-tail], unix.MADV_DONTNEED)
}

var leaked struct {
	sync.Mutex
	ptrs []*byte
}

func leak(p *byte) {
	leaked.Lock()
	leaked.ptrs = append(leaked.ptrs, p)
	leaked.Unlock()
}
