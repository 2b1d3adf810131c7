//go:build linux

package session

import (
	"bytes"
	"errors"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	processCPU = func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
}

// TestAppendReportsPartialWrite caps the file size (RLIMIT_FSIZE) so the
// kernel accepts only part of the batch, and checks that Append reports
// ErrPartialWrite and cuts the torn line off again.
func TestAppendReportsPartialWrite(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	orig, _ := os.ReadFile(path)
	g := guardOf(t, path)
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skipf("getrlimit: %v", err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	limit := syscall.Rlimit{Cur: uint64(g.Size) + 20, Max: old.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		t.Skipf("setrlimit: %v", err)
	}
	res, err := Append(path, g, []NewEntry{CustomEntry("x", strings.Repeat("y", 100))},
		AppendOptions{Now: func() time.Time { return appendClock }})
	if rerr := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); rerr != nil {
		t.Fatalf("restore rlimit: %v", rerr)
	}
	if !errors.Is(err, ErrPartialWrite) || res.Written != 20 || !res.RolledBack || res.Size != g.Size {
		t.Fatalf("partial write: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
		t.Fatalf("file not restored: %q", got[len(orig):])
	}
}
