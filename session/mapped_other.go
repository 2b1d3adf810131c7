//go:build !(linux && (amd64 || arm64))

package session

import (
	"errors"
	"os"
)

// errNoMapping: session files are mapped on linux/amd64 and linux/arm64
// only (where the mapping is tested); elsewhere they are read.
var errNoMapping = errors.New("memory-mapped reading is not used on this platform")

func mapFile(f *os.File, path string, size int64) ([]byte, *mapping, error) {
	return nil, nil, errNoMapping
}

func (m *mapping) release(*byte) {}

func zeroPages(addr, length uintptr) error { return errNoMapping }

func dropPages(b []byte) {}
