// Command gen writes the deterministic inputs of the whole-process
// benchmarks in bench/: one Pi session of a given size and shape, or a
// Pi session directory of many sessions for one project.
//
//	go run ./bench/gen -o big.jsonl -bytes 100000000 -shape few-large
//	go run ./bench/gen -agent-dir A -cwd /home/dev/project -files 2000
//	go run ./bench/gen -agent-dir A -cwd /home/dev/project -tree-agents 100000
//
//	go run ./bench/gen -payload big.json -keys 2000000
//
// The first form prints the file's size, entry count and the id of an
// entry half-way through it; the -payload form writes a saved provider
// payload (pi-forge's /payload save) holding an object of that many keys,
// at the top level or, with -nested, under "metadata"; the second writes the sessions where Pi keeps
// them (A/sessions/<encoded cwd>/<timestamp>_<id>.jsonl) with sizes spread
// like a real history: most sessions small, a few of several megabytes;
// the third a root session with a pi-subagent tree of many agents (tree.go).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
	total := fs.Int64("total", 0, "with -agent-dir: scale the sessions' sizes so that they add up to about this many bytes (0: as drawn, about 320 MB for 2,000)")
	treeAgents := fs.Int("tree-agents", 0, "with -agent-dir: write a root session and a pi-subagent tree of this many agents instead")
	treeFiles := fs.Int("tree-files", 1100, "agents of the tree (-tree-agents) that have a session file, parents first")
	payload := fs.String("payload", "", "write a saved payload with an object of -keys keys to this file")
	keys := fs.Int("keys", 2_000_000, "keys of the payload's object (-payload)")
	nested := fs.Bool("nested", false, "put the object under \"metadata\" instead of the top level (-payload)")
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
	case *payload != "":
		n, err := writePayload(*payload, *keys, *nested)
		if err != nil {
			return err
		}
		fmt.Printf("%s bytes=%d keys=%d\n", *payload, n, *keys)
		return nil
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
		return writeDirectory(*agentDir, *cwd, *files, *total, *seed)
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
// shapes, created a few hours apart. With total > 0 every size is scaled
// by one factor (the mix of small and large sessions stays), chosen so
// that the files written add up to total bytes within 1%: each session
// is at least its header and first turn, so the factor is found by
// generating the sessions without writing them.
func writeDirectory(agentDir, cwd string, n int, total int64, seed uint64) error {
	dir := filepath.Join(agentDir, "sessions", sessiondir.Name(cwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5deece66d))
	drawn := make([]int64, n)
	for i := range drawn {
		lo, hi := 4e3, 64e3
		switch r := rng.Float64(); {
		case r < 0.02:
			lo, hi = 1e6, 8e6
		case r < 0.20:
			lo, hi = 64e3, 1e6
		}
		drawn[i] = int64(lo * math.Pow(hi/lo, rng.Float64()))
	}
	start := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	config := func(i int, size int64) (gen.Config, string) {
		created := start.Add(time.Duration(i) * 3 * time.Hour)
		id := fmt.Sprintf("%08x-%04x-7000-8000-%012x", uint32(created.Unix()), i, seed)
		name := strings.ReplaceAll(created.Format("2006-01-02T15-04-05.000Z"), ".", "-") + "_" + id + ".jsonl"
		return gen.Config{TargetBytes: size, Seed: seed + uint64(i), Shape: gen.Shape(i % 2), ID: id, Cwd: cwd, Start: created}, name
	}
	scaled := func(f float64) []int64 {
		out := make([]int64, n)
		for i, d := range drawn {
			out[i] = max(1, int64(float64(d)*f))
		}
		return out
	}
	sizes := drawn
	if total > 0 {
		var sum int64
		for _, d := range drawn {
			sum += d
		}
		f := float64(total) / float64(sum)
		for range 8 {
			sizes = scaled(f)
			var out int64
			for i, size := range sizes {
				cfg, _ := config(i, size)
				st, err := gen.Write(io.Discard, cfg)
				if err != nil {
					return err
				}
				out += st.Bytes
			}
			if math.Abs(float64(out-total)) <= 0.01*float64(total) {
				break
			}
			f *= float64(total) / float64(out)
		}
	}
	var written int64
	for i, size := range sizes {
		cfg, name := config(i, size)
		st, err := writeSession(filepath.Join(dir, name), cfg)
		if err != nil {
			return err
		}
		written += st.Bytes
	}
	fmt.Printf("%s %d files %d bytes\n", dir, n, written)
	return nil
}

// writePayload writes a request as pi-forge saves one, with an object of n
// keys ("k0000000": 0, …): the request's own fields first, then the keys
// at the top level, or under "metadata" when nested. It returns the size.
func writePayload(path string, n int, nested bool) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":8192,"system":[{"type":"text","text":"You are a careful assistant."}],` +
		`"messages":[{"role":"user","content":[{"type":"text","text":"Summarise the attached record."}]}]`)
	if nested {
		w.WriteString(`,"metadata":{`)
	}
	buf := make([]byte, 0, 32)
	for i := 0; i < n; i++ {
		buf = buf[:0]
		if i > 0 || !nested {
			buf = append(buf, ',')
		}
		buf = append(buf, `"k`...)
		buf = append(buf, fmt.Sprintf("%07d", i)...)
		buf = append(buf, `":`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		w.Write(buf)
	}
	if nested {
		w.WriteString("}")
	}
	w.WriteString("}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	info, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}
