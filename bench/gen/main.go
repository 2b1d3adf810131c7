// Command gen writes the deterministic inputs of the whole-process
// benchmarks in bench/: a Pi session of a given size and shape, or a
// session directory of many small sessions.
//
//	go run ./bench/gen -o big.jsonl -bytes 100000000 -shape few-large
//	go run ./bench/gen -dir sessions/ -files 2000
package main

import (
	"flag"
	"fmt"
	"os"

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
	size := fs.Int64("bytes", 100_000_000, "approximate size of the session")
	shape := fs.String("shape", "few-large", "entry mix: few-large or many-small")
	seed := fs.Uint64("seed", 42, "seed of the generator")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sh, err := gen.ParseShape(*shape)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o is required")
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	st, err := gen.Write(f, gen.Config{TargetBytes: *size, Seed: *seed, Shape: sh})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes, %d entries\n", *out, st.Bytes, st.Entries)
	return nil
}
