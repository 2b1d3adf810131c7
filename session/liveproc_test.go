package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeProc builds a /proc-style tree: each process gets a cwd symlink, a
// cmdline file and, when exe is set, an exe symlink.
type fakeProc struct {
	pid     int
	cwd     string
	cmdline string // NUL-separated
	exe     string
}

func stageProc(t *testing.T, procs ...fakeProc) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range procs {
		dir := filepath.Join(root, strconv.Itoa(p.pid))
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.Symlink(p.cwd, filepath.Join(dir, "cwd")))
		must(t, os.WriteFile(filepath.Join(dir, "cmdline"), []byte(p.cmdline), 0o444))
		if p.exe != "" {
			must(t, os.Symlink(p.exe, filepath.Join(dir, "exe")))
		}
	}
	// Entries that are not processes are ignored.
	must(t, os.WriteFile(filepath.Join(root, "uptime"), []byte("1 2\n"), 0o444))
	must(t, os.MkdirAll(filepath.Join(root, "self-not-a-pid"), 0o755))
	return root
}

func TestIsPiCommand(t *testing.T) {
	for _, tc := range []struct {
		cmdline, exe string
		want         bool
	}{
		// Pi's process title overwrites the whole argument area.
		{"pi" + strings.Repeat("\x00", 40), "/usr/bin/node", true},
		{"pi-rpc\x00\x00", "/usr/bin/node", true},
		// Before the title is set: node running the npm bin link or the package.
		{"node\x00/usr/local/bin/pi\x00--session\x00x.jsonl", "/usr/bin/node", true},
		{"/usr/bin/node\x00--enable-source-maps\x00/home/u/.npm/lib/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js", "/usr/bin/node", true},
		{"node\x00-r\x00/tmp/hook.js\x00/opt/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "", true},
		{"node22\x00/home/u/bin/pi", "", true},
		{"bun\x00run\x00/x/node_modules/@earendil-works/pi-coding-agent/dist/bun/cli.js", "", true},
		// A compiled Pi binary, by name or by its executable.
		{"/home/u/.local/bin/pi\x00-c", "/home/u/.local/bin/pi", true},
		{"agent\x00-c", "/opt/pi/pi", true},
		// Not Pi.
		{"bash\x00-l", "/usr/bin/bash", false},
		{"node\x00server.js", "/usr/bin/node", false},
		{"node\x00/home/u/pi/server.js", "/usr/bin/node", false},
		{"node\x00-e\x00require('pi')", "/usr/bin/node", false},
		{"node\x00-r\x00pi\x00app.js", "/usr/bin/node", false},
		{"python3\x00pi.py", "/usr/bin/python3", false},
		{"pip\x00install", "/usr/bin/pip", false},
		{"vim\x00pi", "/usr/bin/vim", false},
		{"node\x00run\x00pi-coding-agent-notes.js", "", false},
		{"", "", false},
	} {
		got, ok := IsPiCommand(splitCmdline([]byte(tc.cmdline)), tc.exe)
		if ok != tc.want {
			t.Errorf("%q (exe %q): %v %q, want %v", tc.cmdline, tc.exe, ok, got, tc.want)
		}
	}
}

func TestFindPiInAFakeProcTree(t *testing.T) {
	project := t.TempDir()
	other := t.TempDir()
	link := filepath.Join(t.TempDir(), "via-link")
	must(t, os.Symlink(project, link))
	root := stageProc(t,
		fakeProc{pid: 4242, cwd: project, cmdline: "pi\x00\x00\x00", exe: "/usr/bin/node"},
		fakeProc{pid: 77, cwd: link, cmdline: "node\x00/usr/lib/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js", exe: "/usr/bin/node"},
		fakeProc{pid: 100, cwd: other, cmdline: "pi\x00\x00", exe: "/usr/bin/node"}, // another project
		fakeProc{pid: 101, cwd: project, cmdline: "bash\x00", exe: "/usr/bin/bash"}, // Pi's shell tool, say
		fakeProc{pid: 102, cwd: filepath.Join(project, "sub"), cmdline: "pi\x00"},   // a directory that does not exist
		fakeProc{pid: 103, cwd: project, cmdline: ""},                               // a kernel thread or zombie
	)
	got, err := FindPiIn(root, project)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].PID != 77 || got[1].PID != 4242 || got[1].Command != "pi" || !strings.Contains(got[0].Command, "pi-coding-agent") {
		t.Fatalf("found %+v", got)
	}
	if got, _ := FindPiIn(root, other); len(got) != 1 || got[0].PID != 100 {
		t.Fatalf("other project: %+v", got)
	}
	if got, _ := FindPiIn(root, filepath.Join(project, "missing")); len(got) != 0 {
		t.Fatalf("a missing project has no Pi: %+v", got)
	}
	if _, err := FindPiIn(filepath.Join(root, "nope"), project); err == nil {
		t.Fatal("an unreadable process table is an error")
	}
}

// TestFindPiSeesARealProcess starts a process titled "pi" in a project
// directory (as Pi's process title shows) and finds it in the real /proc.
func TestFindPiSeesARealProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("FindPi reads /proc, which only Linux has")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	project := t.TempDir()
	cmd := &exec.Cmd{Path: sleep, Args: []string{"pi", "30"}, Dir: project}
	must(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := FindPi(project)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 && got[0].PID == cmd.Process.Pid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d not found: %+v", cmd.Process.Pid, got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got, _ := FindPi(t.TempDir()); len(got) != 0 {
		t.Fatalf("a Pi in another directory: %+v", got)
	}
}

// FuzzIsPiCommand: any command line is classified without panicking, a
// command whose argv[0] is named pi always counts, and the name given is
// taken from the command line or the executable.
func FuzzIsPiCommand(f *testing.F) {
	f.Add([]byte("pi\x00\x00\x00"), "/usr/bin/node")
	f.Add([]byte("node\x00-r\x00x\x00/a/pi-coding-agent/dist/cli.js"), "")
	f.Add([]byte("bun\x00run\x00--\x00pi"), "/usr/bin/bun")
	f.Fuzz(func(t *testing.T, cmdline []byte, exe string) {
		argv := splitCmdline(cmdline)
		name, ok := IsPiCommand(argv, exe)
		if len(argv) > 0 && baseName(argv[0]) == "pi" && !ok {
			t.Fatalf("%q is pi", argv)
		}
		if ok && name == "" {
			t.Fatalf("%q: a match without a name", argv)
		}
		if !ok && name != "" {
			t.Fatalf("%q: a name without a match", argv)
		}
	})
}
