package replay

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/session"
)

// mainFile is the generated main session of the shared Pi fixtures.
const mainFile = "pi-sessions/generated-pi-1.6.0/agent/sessions/--home-dev-projects-demo-app--" +
	"/2026-11-29T22-47-39-368Z_01a2297e-1867-72d0-99d9-f9f8b12b74b4.jsonl"

func mustRead(t testing.TB, file string) *session.Session {
	t.Helper()
	s, err := session.Read(strings.NewReader(file), session.Options{})
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return s
}

func itoa(i int) string { return strconv.Itoa(i) }

var benchSession *session.Session

// loadBenchSession generates (once per run) a 100 MB session to benchmark on.
func loadBenchSession(b *testing.B) *session.Session {
	if benchSession != nil {
		return benchSession
	}
	path := filepath.Join(b.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 100 << 20, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	s, err := session.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	benchSession = s
	return s
}
