// Package hostile is the corpus of hostile inputs of issue 9: session files
// and library resources whose every human-readable field carries terminal
// escape sequences (OSC 52 clipboard writes, titles, hyperlinks, CSI), C1
// controls and bidi overrides; parentId cycles, duplicate ids, long ids and
// v1 sessions; a preset of catastrophic regex rules. What cannot be
// committed — FIFOs, symlinks to devices, file names with escape bytes, a
// long-id file name, huge lines — is made at test time by Stage and
// WriteHugeLineSession. Tests of every package and the CLI run over it and
// check with Forbidden that no raw ESC, C1 or bidi control reaches output.
// It is imported only by tests.
package hostile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Root is the directory holding the committed corpus.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// ProjectDirName is the directory name, under the agent's sessions
// directory, that Stage copies the corpus sessions into.
const ProjectDirName = "--hostile--"

// LongID is a preset id of 240 characters: it passes the id grammar and
// fits the 255-byte file name limit as <id>.json. Stage writes that preset
// (a name this long does not belong in a repository checkout).
var LongID = strings.Repeat("l", 240)

// EscapedSessionName is a session file name carrying an OSC 52 clipboard
// write and a bidi override; Stage creates it where the platform allows.
const EscapedSessionName = "\x1b]52;c;aGFja2Vk\x07evil\u202e.jsonl"

// EscapedResourceName is the file name of a Preset, a capability and a
// profile (one each) that Stage writes with an OSC 52 sequence, an 8-bit
// CSI and a bidi override in it: their JSON does not parse, so their id is
// the file name's stem.
const EscapedResourceName = "evil\x1b]52;c;aGFja2Vk\x07\u009b31m\u202e.json"

// Staged is a workspace built from the corpus in a temporary directory.
type Staged struct {
	// Dir is the temporary root.
	Dir string
	// Cwd is the project (trusted by the caller's choice), AgentDir and
	// ForgeDir the Pi agent and global forge directories.
	Cwd, AgentDir, ForgeDir string
	// SessionsDir holds the corpus sessions: AgentDir/sessions/--hostile--.
	SessionsDir string
	// Sessions are the committed corpus sessions as staged, by base name.
	Sessions map[string]string
	// Special lists the special files made at test time (FIFOs, symlinks
	// to /dev/zero), by role: "session-fifo", "session-zero",
	// "preset-fifo", "capability-zero". Empty where unsupported.
	Special map[string]string
	// EscapedName is the staged session with EscapedSessionName ("" where
	// the file system refuses such a name).
	EscapedName string
	// EscapedResources are the staged resource files named
	// EscapedResourceName (none where the file system refuses the name).
	EscapedResources []string
}

// Stage copies the corpus into a temporary directory and adds what is made
// at test time: the special files (unix), the escaped file name and the
// long-id preset.
func Stage(t testing.TB) Staged {
	t.Helper()
	dir := t.TempDir()
	s := Staged{
		Dir: dir, Cwd: filepath.Join(dir, "project"), AgentDir: filepath.Join(dir, "agent"),
		ForgeDir: filepath.Join(dir, "forge"), Sessions: map[string]string{}, Special: map[string]string{},
	}
	s.SessionsDir = filepath.Join(s.AgentDir, "sessions", ProjectDirName)
	if err := copyTree(filepath.Join(Root(), "project"), s.Cwd); err != nil {
		t.Fatalf("stage project: %v", err)
	}
	if err := copyTree(filepath.Join(Root(), "sessions"), s.SessionsDir); err != nil {
		t.Fatalf("stage sessions: %v", err)
	}
	if err := os.MkdirAll(s.ForgeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// pi-subagent loads the project's role files (.pi/agents) only with
	// agentScope "both" or "project".
	if err := os.WriteFile(filepath.Join(s.AgentDir, "subagent.json"), []byte(`{"agentScope":"both"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(s.SessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		s.Sessions[e.Name()] = filepath.Join(s.SessionsDir, e.Name())
	}
	stacks := filepath.Join(s.Cwd, ".pi", "forge", "prompt-stacks")
	long := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"` + LongID +
		`","name":"Long id","items":[{"kind":"slot","id":"history","slot":"chat-history"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(stacks, LongID+".json"), []byte(long), 0o644); err != nil {
		t.Fatalf("stage long-id preset: %v", err)
	}
	// A resource file whose name carries the escapes and whose JSON does
	// not parse: its id is then the file name's stem (pi-forge's fallback).
	for _, dir := range []string{"prompt-stacks", "capabilities", "agent-profiles"} {
		p := filepath.Join(s.Cwd, ".pi", "forge", dir, EscapedResourceName)
		if os.WriteFile(p, []byte("{\"id\": \"not JSON"), 0o644) == nil {
			s.EscapedResources = append(s.EscapedResources, p)
		}
	}
	if data, err := os.ReadFile(s.Sessions["v1.jsonl"]); err == nil {
		p := filepath.Join(s.SessionsDir, EscapedSessionName)
		if os.WriteFile(p, data, 0o644) == nil {
			s.EscapedName = p
		}
	}
	makeSpecialFiles(t, &s)
	return s
}

// WriteHugeLineSession writes a session whose third line is one tool
// result of about lineBytes bytes (the "300 MB single line" case), between
// ordinary entries. It streams, so the line is never held in memory.
func WriteHugeLineSession(path string, lineBytes int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := func(s string) {
		if err == nil {
			_, err = io.WriteString(f, s)
		}
	}
	w(`{"type":"session","version":3,"id":"huge-line","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/hostile"}` + "\n")
	w(`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":"read it","timestamp":1772359201000}}` + "\n")
	w(`{"type":"message","id":"t1","parentId":"u1","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"`)
	chunk := strings.Repeat("0123456789", 1<<16)
	for left := lineBytes; left > 0 && err == nil; left -= int64(len(chunk)) {
		w(chunk[:min(int64(len(chunk)), left)])
	}
	w(`"}],"isError":false,"timestamp":1772359202000}}` + "\n")
	w(`{"type":"message","id":"u2","parentId":"t1","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"user","content":"after the huge line","timestamp":1772359203000}}` + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write huge-line session: %w", err)
	}
	return nil
}

// SpecialKinds are the special files MakeSpecial makes.
var SpecialKinds = []string{"fifo", "zero"}

// HangBound is how long Within waits: it bounds a hang, not a budget, so
// it is generous for a loaded machine (a refusal takes microseconds).
const HangBound = 30 * time.Second

// Within runs f and fails the test when it has not returned after
// HangBound: a read that blocks on a FIFO or streams /dev/zero never
// would. f keeps running in the background after a failure.
func Within(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(HangBound):
		t.Fatalf("%s did not return within %v: it blocked on a special file", what, HangBound)
	}
}

// Race runs n writers at once — all started, then released together —
// and returns how many returned nil and the errors of the others: the
// "1,500 concurrent writers" attack, in one process.
func Race(n int, write func(i int) error) (wins int, errs []error) {
	var mu sync.Mutex
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			err := write(i)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				wins++
			} else {
				errs = append(errs, err)
			}
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return wins, errs
}

// Forbidden returns the first rune of s that must never reach a terminal
// raw — ESC, BEL, any other C0 control but newline and tab (a carriage
// return or backspaces can overwrite what was printed: "ok\rFAIL"), DEL,
// a C1 control (U+0080–U+009F), a bidi control (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069) or a line/paragraph separator — and its
// byte offset, or ok false when there is none.
func Forbidden(s string) (r rune, at int, ok bool) {
	for i, c := range s {
		switch {
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f, c >= 0x80 && c <= 0x9f,
			c == 0x061c, c == 0x200e, c == 0x200f, c >= 0x202a && c <= 0x202e, c >= 0x2066 && c <= 0x2069,
			c == 0x2028, c == 0x2029:
			return c, i, true
		}
	}
	return 0, 0, false
}

// AssertClean fails the test when out holds a Forbidden rune, quoting the
// surroundings.
func AssertClean(t testing.TB, what, out string) {
	t.Helper()
	if r, at, bad := Forbidden(out); bad {
		lo, hi := max(0, at-40), min(len(out), at+40)
		t.Errorf("%s: raw %U at byte %d: %q", what, r, at, out[lo:hi])
	}
}

// AssertCleanView is AssertClean for a rendered TUI view: the program's
// own styling (complete SGR sequences, ESC [ digits ; : m) is removed
// first, and anything else — an escape sequence from a file included — is
// still reported.
func AssertCleanView(t testing.TB, what, view string) {
	t.Helper()
	AssertClean(t, what, StripSGR(view))
}

// StripSGR removes complete SGR sequences (ESC [ params m, params digits,
// ";" or ":") and nothing else.
func StripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// copyTree copies the regular files and directories below src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
