//go:build unix

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// exportFixture is a demo workspace with one of its sessions copied to a
// scratch directory outside every protected directory.
func exportFixture(t *testing.T) (args []string, scratch, session, stored string) {
	t.Helper()
	args, layout := demoArgs(t)
	files, _ := filepath.Glob(filepath.Join(layout.SessionDir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("demo has no sessions")
	}
	scratch = t.TempDir()
	session = filepath.Join(scratch, "s.jsonl")
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(session, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return args, scratch, session, files[0]
}

// unchanged fails the test when path no longer holds want.
func unchanged(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s was changed (%v)", filepath.Base(path), err)
	}
}

// `session export S -o S` used to replace the session with Markdown and
// exit 0; -o onto any existing file replaced it silently.
func TestExportRefusesToOverwrite(t *testing.T) {
	args, scratch, sess, stored := exportFixture(t)
	original, _ := os.ReadFile(sess)
	for _, force := range []bool{false, true} {
		cmd := in(args, "session", "export", sess, "-o", sess)
		if force {
			cmd = append(cmd, "--force")
		}
		code, _, errOut := runCLI(t, cmd...)
		if code != exitRefused || !strings.Contains(errOut, "it is the session being exported") {
			t.Errorf("-o the input (force %v): exit %d %q", force, code, errOut)
		}
		unchanged(t, sess, original)
	}
	// The same file under another name (a symlink to it, a relative path).
	alias := filepath.Join(scratch, "alias.jsonl")
	if err := os.Link(sess, alias); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, in(args, "session", "export", sess, "-o", alias, "--force")...); code != exitRefused {
		t.Errorf("-o a hard link of the input: exit %d %q", code, errOut)
	}
	unchanged(t, sess, original)

	// An existing file needs --force; a file the first export created too.
	out := filepath.Join(scratch, "out.md")
	if code, _, errOut := runCLI(t, in(args, "session", "export", sess, "-o", out)...); code != exitOK {
		t.Fatalf("first export: exit %d %q", code, errOut)
	}
	first, _ := os.ReadFile(out)
	if err := os.WriteFile(out, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, in(args, "session", "export", sess, "-o", out)...)
	if code != exitRefused || !strings.Contains(errOut, "pass --force") {
		t.Errorf("-o an existing file: exit %d %q", code, errOut)
	}
	unchanged(t, out, []byte("my notes"))
	if code, _, errOut := runCLI(t, in(args, "session", "export", sess, "-o", out, "--force")...); code != exitOK {
		t.Fatalf("--force: exit %d %q", code, errOut)
	}
	unchanged(t, out, first)

	// Never into Pi's sessions or a forge directory, even with --force.
	storedBytes, _ := os.ReadFile(stored)
	presets, _ := filepath.Glob(filepath.Join(args[1], ".pi", "forge", "prompt-stacks", "*.json"))
	if len(presets) == 0 {
		t.Fatal("demo has no project presets")
	}
	presetBytes, _ := os.ReadFile(presets[0])
	for _, target := range []string{stored, filepath.Join(filepath.Dir(stored), "new.md"), presets[0], filepath.Join(args[5], "new.md")} {
		code, _, errOut := runCLI(t, in(args, "session", "export", sess, "-o", target, "--force")...)
		if code != exitRefused || !strings.Contains(errOut, "exports never go there") {
			t.Errorf("-o %s: exit %d %q", target, code, errOut)
		}
	}
	unchanged(t, stored, storedBytes)
	unchanged(t, presets[0], presetBytes)
	if _, err := os.Lstat(filepath.Join(filepath.Dir(stored), "new.md")); err == nil {
		t.Error("an export was written into the sessions directory")
	}
}

// -o onto a FIFO, a device or a symlink turned it into a regular file (or
// replaced the link); they are refused with exit 4 and left as they were.
func TestExportRefusesSpecialFilesAndLinks(t *testing.T) {
	args, scratch, sess, _ := exportFixture(t)
	fifo := filepath.Join(scratch, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	target := filepath.Join(scratch, "target.md")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(scratch, "link.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(scratch, "dangling.md")
	if err := os.Symlink(filepath.Join(scratch, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{fifo: "named pipe", link: "symbolic link", dangling: "symbolic link", scratch: "directory"}
	if os.Geteuid() == 0 {
		// A private character device node (the null device's numbers): if
		// the guard failed, only this copy would be replaced.
		dev := filepath.Join(scratch, "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(1<<8|3)); err == nil {
			cases[dev] = "character device"
		}
	}
	for path, kind := range cases {
		for _, force := range []bool{false, true} {
			cmd := in(args, "session", "export", sess, "-o", path)
			if force {
				cmd = append(cmd, "--force")
			}
			code, _, errOut := runWithin(t, cmd...)
			if code != exitRefused || !strings.Contains(errOut, kind) {
				t.Errorf("-o %s (force %v): exit %d %q", filepath.Base(path), force, code, errOut)
			}
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s became a regular file or vanished (%v)", filepath.Base(path), err)
		}
	}
	unchanged(t, target, []byte("keep"))
}

// Pi's whole agent directory (settings.json, auth.json with the user's
// keys, models.json, role files) and every project's .pi directory are
// configuration, never an export's place: `-o ~/.pi/agent/auth.json
// --force` replaced the keys with Markdown, and `-o ~/.pi/agent/models.json`
// left Pi a models.json it cannot parse.
func TestExportNeverWritesPiConfiguration(t *testing.T) {
	args, scratch, sess, _ := exportFixture(t)
	agentDir, project := args[3], args[1]
	other := filepath.Join(scratch, "other-project", ".pi")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(agentDir, "settings.json")
	settingsBytes, _ := os.ReadFile(settings)
	auth := filepath.Join(agentDir, "auth.json") // the demo's placeholder keys
	authBytes, _ := os.ReadFile(auth)
	for _, target := range []string{
		settings, filepath.Join(agentDir, "auth.json"), filepath.Join(agentDir, "models.json"),
		filepath.Join(project, ".pi", "settings.json"), filepath.Join(project, ".pi", "SYSTEM.md"),
		filepath.Join(other, "settings.json"), filepath.Join(other, "forge", "prompt-stacks", "x.json"),
	} {
		for _, force := range []bool{false, true} {
			cmd := in(args, "session", "export", sess, "-o", target)
			if force {
				cmd = append(cmd, "--force")
			}
			code, _, errOut := runCLI(t, cmd...)
			if code != exitRefused || !strings.Contains(errOut, "exports never go there") {
				t.Errorf("-o %s (force %v): exit %d %q", target, force, code, errOut)
			}
		}
	}
	unchanged(t, settings, settingsBytes)
	unchanged(t, auth, authBytes)
	for _, p := range []string{filepath.Join(agentDir, "models.json"), filepath.Join(other, "settings.json")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}

// -o into a directory that does not exist says so.
func TestExportIntoAMissingDirectory(t *testing.T) {
	args, scratch, sess, _ := exportFixture(t)
	target := filepath.Join(scratch, "no-such-dir", "out.md")
	code, _, errOut := runCLI(t, in(args, "session", "export", sess, "-o", target)...)
	if code != exitFailed || !strings.Contains(errOut, "no-such-dir does not exist") || strings.Contains(errOut, ".forgebench-") {
		t.Errorf("exit %d %q", code, errOut)
	}
}

// 200 exports to one new file at once, without --force: exactly one
// writes it, every other is refused because the file exists. (The target
// was checked before the export was built and replaced by a rename after,
// so several won and the last one's bytes stayed.)
func TestConcurrentExportsHaveOneWinner(t *testing.T) {
	args, scratch, sess, _ := exportFixture(t)
	target := filepath.Join(scratch, "raced.md")
	const writers = 200
	codes := make(chan int, writers)
	start := make(chan struct{})
	var ready, built sync.WaitGroup
	// Every export has checked the target (absent) and built its text
	// before any publishes: the race as it is at its widest.
	built.Add(writers)
	released := make(chan struct{})
	beforeExportPublish = func() { built.Done(); <-released }
	defer func() { beforeExportPublish = func() {} }()
	go func() { built.Wait(); close(released) }()
	for i := 0; i < writers; i++ {
		ready.Add(1)
		go func() {
			ready.Done()
			<-start
			var out, errb bytes.Buffer
			codes <- Run(in(args, "session", "export", sess, "-o", target), &out, &errb)
		}()
	}
	ready.Wait()
	close(start)
	count := map[int]int{}
	for i := 0; i < writers; i++ {
		count[<-codes]++
	}
	if count[exitOK] != 1 || count[exitRefused] != writers-1 {
		t.Errorf("exit codes of %d exports to one new file: %v", writers, count)
	}
	entries, _ := os.ReadDir(scratch)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".forgebench-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
