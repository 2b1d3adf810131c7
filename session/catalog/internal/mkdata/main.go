// Command mkdata packs the pi-ai model catalog data files (one JSON file per
// provider) into session/catalog/data/catalog.tsv.gz: one line per provider,
// "<provider>\t<compact JSON>", sorted by provider, gzip-compressed.
//
// Usage: go run ./session/catalog/internal/mkdata <dir with *.json> <output file>
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mkdata <catalog dir> <output .tsv.gz>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "mkdata:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Strings(files)
	var text bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			return fmt.Errorf("compact %s: %w", f, err)
		}
		provider := strings.TrimSuffix(filepath.Base(f), ".json")
		text.WriteString(provider)
		text.WriteByte('\t')
		text.Write(compact.Bytes())
		text.WriteByte('\n')
	}
	var gz bytes.Buffer
	w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	if _, err := w.Write(text.Bytes()); err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	if err := os.WriteFile(out, gz.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
