package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
)

// withStdin runs fn with standard input fed from a pipe that a writer
// keeps filling with chunk (up to total bytes, then EOF); it returns how
// many bytes the writer got into the pipe, which bounds what was read
// from above (plus the pipe's buffer).
func withStdin(t *testing.T, chunk []byte, total int64, fn func()) int64 {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var written atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Close()
		for written.Load() < total {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	saved := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = saved }()
	fn()
	r.Close() // the writer stops with EPIPE
	<-done
	return written.Load()
}

// TestCapabilityAddStdinStopsAfterTheLimit: a directive on standard input
// longer than pi-forge's content limit is refused after limit+1
// characters are read, without reading the rest of an endless stream.
func TestCapabilityAddStdinStopsAfterTheLimit(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	before, _ := os.ReadFile(file)
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	var code int
	var errOut string
	written := withStdin(t, chunk, 64<<20, func() {
		code, _, errOut = runCLI(t, in(args, "capability", "add", "-", "--session", file, "--force")...)
	})
	if code != exitRefused || !strings.Contains(errOut, "100000 characters") || !strings.Contains(errOut, "standard input") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// What went into the pipe: what was read, at most one write more and
	// the pipe's buffer (64 KiB on Linux, at most 1 MiB anywhere).
	if limit := int64(capability.MaxContentLength+1) + int64(len(chunk)) + 1<<20; written > limit {
		t.Fatalf("%d bytes were consumed from standard input; the limit is %d characters", written, capability.MaxContentLength)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("a refused directive was written")
	}
}

// TestReadDirectiveCountsUTF16: the limit counts UTF-16 code units as
// pi-forge does (a non-BMP character counts 2), and reads no more than
// limit+1 of them.
func TestReadDirectiveCountsUTF16(t *testing.T) {
	const limit = 10
	emoji := strings.Repeat("😀", 5) // 10 code units
	if got, long, err := readLimitedText(strings.NewReader(emoji), limit); err != nil || long || got != emoji {
		t.Fatalf("exactly the limit: %q %v %v", got, long, err)
	}
	r := &countingReader{r: strings.NewReader(emoji + "b" + strings.Repeat("c", 1000))}
	if got, long, err := readLimitedText(r, limit); err != nil || !long || got != emoji+"b" {
		t.Fatalf("11 code units: %q %v %v", got, long, err)
	}
	if r.n > int64(len(emoji))+1 {
		t.Fatalf("read %d bytes, more than the %d that hold limit+1 characters", r.n, len(emoji)+1)
	}
	// A character split across reads is not miscounted.
	if got, long, err := readLimitedText(io.MultiReader(strings.NewReader("\xf0\x9f"), strings.NewReader("\x98\x80abc")), limit); err != nil || long || got != "😀abc" {
		t.Fatalf("split character: %q %v", got, err)
	}
	// Invalid bytes stay as they are and count one each (U+FFFD in JS).
	if got, long, _ := readLimitedText(strings.NewReader("\xff\xfe"+strings.Repeat("x", 8)), limit); long || got != "\xff\xfe"+strings.Repeat("x", 8) {
		t.Fatalf("invalid bytes: %q %v", got, long)
	}
	if _, long, _ := readLimitedText(strings.NewReader("\xff\xfe"+strings.Repeat("x", 9)), limit); !long {
		t.Fatal("invalid bytes are not counted")
	}
	// A stream that ends inside a character.
	if got, long, err := readLimitedText(strings.NewReader("ab\xf0\x9f"), limit); err != nil || long || got != "ab\xf0\x9f" {
		t.Fatalf("truncated character: %q %v %v", got, long, err)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestCapabilityNewStdinTooLong: `capability new --content -` reads at
// most limit+1 characters too, and validation reports the content as too
// long (exit 1, nothing created).
func TestCapabilityNewStdinTooLong(t *testing.T) {
	args, layout := demoArgs(t)
	var code int
	var errOut string
	written := withStdin(t, bytes.Repeat([]byte("é"), 32<<10), 64<<20, func() {
		code, _, errOut = runCLI(t, in(args, "capability", "new", "huge", "--content", "-")...)
	})
	if code != exitFailed || !strings.Contains(errOut, "content exceeds maximum length of 100000 characters.") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if written > 2*(capability.MaxContentLength+1)+(64<<10)+(1<<20) {
		t.Fatalf("%d bytes consumed", written)
	}
	if _, err := os.Stat(layout.ProjectDir + "/.pi/forge/capabilities/huge.json"); err == nil {
		t.Fatal("a capability with too long content was created")
	}
}

// FuzzReadLimitedText: the text is a prefix of the input, the whole input
// when not too long, and its length in UTF-16 code units (invalid bytes
// count one) is at most the limit, or limit+1 when too long.
func FuzzReadLimitedText(f *testing.F) {
	f.Add([]byte("hello"), uint8(3), uint8(2))
	f.Add([]byte("😀😀a"), uint8(4), uint8(1))
	f.Add([]byte("\xf0\x9f\x98"), uint8(1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, limit, step uint8) {
		r := io.Reader(bytes.NewReader(data))
		if step > 0 {
			r = &stepReader{data: data, step: int(step)}
		}
		got, long, err := readLimitedText(r, int(limit))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), got) || (!long && got != string(data)) {
			t.Fatalf("%q from %q (long %v)", got, data, long)
		}
		units := 0
		for _, c := range got {
			units++
			if c >= 0x10000 {
				units++
			}
		}
		if (!long && units > int(limit)) || (long && units != int(limit)+1 && units != int(limit)+2) {
			t.Fatalf("%d units for limit %d (long %v)", units, limit, long)
		}
	})
}

// stepReader returns at most step bytes per read.
type stepReader struct {
	data []byte
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.step)], s.data)
	s.data = s.data[n:]
	return n, nil
}
