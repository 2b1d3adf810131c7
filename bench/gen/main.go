// Command gen writes the deterministic inputs of the whole-process
// benchmarks in bench/: one Pi session of a given size and shape, or a
// Pi session directory of many sessions for one project.
//
//	go run ./bench/gen -o big.jsonl -bytes 100000000 -shape few-large
//	go run ./bench/gen -agent-dir A -cwd /home/dev/project -files 2000
//	go run ./bench/gen -agent-dir A -cwd /home/dev/project -tree-agents 100000
//
// The first form prints the file's size, entry count and the id of an
// entry half-way through it; the second writes the sessions where Pi keeps
// them (A/sessions/<encoded cwd>/<timestamp>_<id>.jsonl) with sizes spread
// like a real history: most sessions small, a few of several megabytes;
// the third a root session with a pi-subagent tree of many agents (tree.go).
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/sessiondir"
	gen "github.com/forgebench/forgebench/internal/sessiongen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := fs.String("o", "", "write one session to this file")
	size := fs.Int64("bytes", 100_000_000, "approximate size of the session (-o)")
	shape := fs.String("shape", "few-large", "entry mix: few-large or many-small")
	seed := fs.Uint64("seed", 42, "seed of the generator")
	id := fs.String("id", "", "session id of the header (-o; default a fixed id)")
	start := fs.String("start", "", "header timestamp, RFC 3339 (-o; default 2026-11-01T09:00:00Z)")
	agentDir := fs.String("agent-dir", "", "write a session directory under this Pi agent directory")
	cwd := fs.String("cwd", "/home/dev/projects/bench", "the project the directory's sessions belong to")
	files := fs.Int("files", 2000, "sessions in the directory (-agent-dir)")
	treeAgents := fs.Int("tree-agents", 0, "with -agent-dir: write a root session and a pi-subagent tree of this many agents instead")
	treeFiles := fs.Int("tree-files", 1100, "agents of the tree (-tree-agents) that have a session file, parents first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sh, err := gen.ParseShape(*shape)
	if err != nil {
		return err
	}
	var started time.Time
	if *start != "" {
		if started, err = time.Parse(time.RFC3339, *start); err != nil {
			return fmt.Errorf("-start: %w", err)
		}
	}
	switch {
	case *out != "":
		st, err := writeSession(*out, gen.Config{TargetBytes: *size, Seed: *seed, Shape: sh, ID: *id, Start: started})
		if err != nil {
			return err
		}
		fmt.Printf("%s bytes=%d entries=%d mid=%s last=%s\n", *out, st.Bytes, st.Entries, st.MidID, st.LastID)
		return nil
	case *agentDir != "" && *treeAgents > 0:
		return writeTree(*agentDir, *cwd, *treeAgents, *treeFiles, *seed)
	case *agentDir != "":
		return writeDirectory(*agentDir, *cwd, *files, *seed)
	}
	return fmt.Errorf("give -o FILE or -agent-dir DIR")
}

func writeSession(path string, cfg gen.Config) (gen.Stats, error) {
	f, err := os.Create(path)
	if err != nil {
		return gen.Stats{}, err
	}
	st, err := gen.Write(f, cfg)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return st, err
}

// writeDirectory writes n sessions of one project: 80% of 4–64 KB, 18% of
// 64 KB–1 MB, 2% of 1–8 MB (log-uniform within each band), alternating
// shapes, created a few hours apart.
func writeDirectory(agentDir, cwd string, n int, seed uint64) error {
	dir := filepath.Join(agentDir, "sessions", sessiondir.Name(cwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5deece66d))
	start := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	var total int64
	for i := 0; i < n; i++ {
		lo, hi := 4e3, 64e3
		switch r := rng.Float64(); {
		case r < 0.02:
			lo, hi = 1e6, 8e6
		case r < 0.20:
			lo, hi = 64e3, 1e6
		}
		size := int64(lo * math.Pow(hi/lo, rng.Float64()))
		created := start.Add(time.Duration(i) * 3 * time.Hour)
		id := fmt.Sprintf("%08x-%04x-7000-8000-%012x", uint32(created.Unix()), i, seed)
		name := strings.ReplaceAll(created.Format("2006-01-02T15-04-05.000Z"), ".", "-") + "_" + id + ".jsonl"
		st, err := writeSession(filepath.Join(dir, name), gen.Config{
			TargetBytes: size, Seed: seed + uint64(i), Shape: gen.Shape(i % 2), ID: id, Cwd: cwd, Start: created,
		})
		if err != nil {
			return err
		}
		total += st.Bytes
	}
	fmt.Printf("%s %d files %d bytes\n", dir, n, total)
	return nil
}
