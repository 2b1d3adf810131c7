// Command mkdata packs the pi-ai model catalog data files (one JSON file per
// provider) into session/catalog/data/catalog.bin: an index of lines
// "<provider>\t<offset>\t<length>\n" ended by an empty line, then one gzip
// stream per provider (its compact JSON) at offset/length after the index,
// providers sorted by name, so a lookup inflates only its own provider.
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
	var index, blobs bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			return fmt.Errorf("compact %s: %w", f, err)
		}
		offset := blobs.Len()
		w, err := gzip.NewWriterLevel(&blobs, gzip.BestCompression)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		if _, err := w.Write(compact.Bytes()); err != nil {
			return fmt.Errorf("gzip %s: %w", f, err)
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("gzip %s: %w", f, err)
		}
		provider := strings.TrimSuffix(filepath.Base(f), ".json")
		fmt.Fprintf(&index, "%s\t%d\t%d\n", provider, offset, blobs.Len()-offset)
	}
	index.WriteByte('\n')
	gz := bytes.Buffer{}
	gz.Write(index.Bytes())
	gz.Write(blobs.Bytes())
	if err := os.WriteFile(out, gz.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
