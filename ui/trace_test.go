package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

// Issue 21: a tmux measurement includes tmux. With FORGEBENCH_TRACE the
// workbench records when it read input, handled each key and message,
// composed each frame and wrote it to the terminal, so bench/tui.sh and
// bench/palette.sh report the workbench's own "last key read → final
// frame written" next to what tmux saw.
func TestTraceRecordsKeysFramesAndWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	tr, err := OpenTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{
		Workspace: resources.Workspace{Cwd: "/home/ada/projects/demo-app", Trust: resources.Trust{Trusted: true}},
		Theme:     themes.Dark,
		Keys:      keymap.DefaultSet(),
		Trace:     tr,
	})
	h := uitest.ForModel(t, m)
	h.UseTimers(m.com)
	h.Resize(100, 30)
	h.Send(uitest.Key("2"))
	frame := m.View().Content
	r, w, err := os.Pipe() // the terminal's input
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.Write([]byte("kkk")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n, err := tr.Input(r).Read(make([]byte, 16)); n != 3 || err != nil {
		t.Fatalf("read through the trace: %d, %v", n, err)
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "terminal"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if n, err := tr.Output(out).Write([]byte(frame)); err != nil || n != len(frame) {
		t.Fatalf("write through the trace: %d, %v", n, err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var last int64
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("a trace line of %d fields: %q", len(f), line)
		}
		at, err1 := strconv.ParseInt(f[1], 10, 64)
		_, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || at < last {
			t.Fatalf("a trace line without its times in order: %q", line)
		}
		last = at
		kinds[f[0]]++
		switch {
		case f[0] == "key" && f[3] != "2":
			t.Fatalf("the key traced as %q, want 2", f[3])
		case f[0] == "read" && f[3] != "3":
			t.Fatalf("the read traced as %s bytes, want 3", f[3])
		case f[0] == "write" && f[3] != strconv.Itoa(len(frame)):
			t.Fatalf("the write traced as %s bytes, want %d", f[3], len(frame))
		}
	}
	if kinds["key"] != 1 || kinds["view"] < 1 || kinds["read"] != 1 || kinds["write"] != 1 || kinds["msg"] < 1 {
		t.Fatalf("trace kinds %v, want one key, one read, one write, frames and messages:\n%s", kinds, data)
	}
	got, err := os.ReadFile(out.Name())
	if err != nil || string(got) != frame {
		t.Fatalf("the terminal did not get the frame written through the trace (%v)", err)
	}
}

// Without a trace nothing is recorded and the model keeps no trace.
func TestNoTraceByDefault(t *testing.T) {
	m := New(Options{Workspace: resources.Workspace{Cwd: "/tmp"}, Keys: keymap.DefaultSet()})
	if m.trace != nil {
		t.Fatal("a model without Options.Trace traces")
	}
	var tr *Trace
	if err := tr.Close(); err != nil {
		t.Fatalf("closing no trace: %v", err)
	}
}
