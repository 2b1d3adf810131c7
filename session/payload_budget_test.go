//go:build unix

package session

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
)

// TestPayloadDiffProcessBudget is the whole-process budget:
// `payload diff session:F#A session:F#B --json` on a 100 MB session costs at
// most 1.5 × `session show --json` on the same file, each run in a fresh
// process, medians of several runs. The session is generated (seeded, not
// committed); A and B are the last two assistant messages. Wall-clock, so it
// runs only with FORGEBENCH_TIMING=1.
func TestPayloadDiffProcessBudget(t *testing.T) {
	if os.Getenv("FORGEBENCH_TIMING") != "1" {
		t.Skip("wall-clock budget: set FORGEBENCH_TIMING=1")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "forgebench")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 100 << 20, Seed: 42}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var assistants []string
	for i := s.LeafIndex(); i >= 0 && len(assistants) < 2; i-- {
		if e := &s.Entries[i]; e.Type == TypeMessage && e.Role == RoleAssistant {
			assistants = append(assistants, e.ID)
		}
	}
	s = nil
	home := t.TempDir() // an empty agent dir: no models.json, no sessions
	run := func(args ...string) (time.Duration, int64) {
		cmd := exec.Command(bin, append([]string{"--agent-dir", home, "--forge-dir", home, "--cwd", dir}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errb.String())
		}
		took := time.Since(start)
		rss := int64(0)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss // KiB on Linux
		}
		if out.Len() == 0 {
			t.Fatalf("%v printed nothing", args)
		}
		return took, rss
	}
	a, b := "session:"+path+"#"+assistants[1], "session:"+path+"#"+assistants[0]
	show := []string{"session", "show", "--json", path}
	diff := []string{"payload", "diff", a, b, "--json"}
	run(show...) // warm the page cache
	run(diff...)
	// Alternate the two commands so a busy machine slows both alike.
	const runs = 9
	var showRuns, diffRuns []time.Duration
	var showRSS, diffRSS int64
	for i := 0; i < runs; i++ {
		took, rss := run(show...)
		showRuns, showRSS = append(showRuns, took), max(showRSS, rss)
		took, rss = run(diff...)
		diffRuns, diffRSS = append(diffRuns, took), max(diffRSS, rss)
	}
	stats := func(d []time.Duration) (median, spread time.Duration) {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2], d[len(d)-1] - d[0]
	}
	showMed, showSpread := stats(showRuns)
	diffMed, diffSpread := stats(diffRuns)
	ratio := float64(diffMed) / float64(showMed)
	t.Logf("session show --json: median %v (spread %v), peak RSS %d MiB", showMed, showSpread, showRSS>>10)
	t.Logf("payload diff --json: median %v (spread %v), peak RSS %d MiB; ratio %.2f (budget 1.5)", diffMed, diffSpread, diffRSS>>10, ratio)
	if ratio > 1.5 {
		t.Errorf("payload diff costs %.2f × session show (budget 1.5): %s", ratio, strings.Join([]string{diffMed.String(), showMed.String()}, " vs "))
	}
}
