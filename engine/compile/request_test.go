package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updateGolden rewrites testdata/cli/*.expected.json; the whole repository
// refreshes goldens the same way: UPDATE_GOLDEN=1 go test ./...
var updateGolden = os.Getenv("UPDATE_GOLDEN") == "1"

// TestCompileRequestGolden runs every testdata/cli/*.request.json through
// the CLI contract and compares the exact output bytes.
func TestCompileRequestGolden(t *testing.T) {
	requests, err := filepath.Glob("testdata/cli/*.request.json")
	if err != nil || len(requests) == 0 {
		t.Fatalf("no golden requests: %v", err)
	}
	for _, path := range requests {
		name := strings.TrimSuffix(filepath.Base(path), ".request.json")
		t.Run(name, func(t *testing.T) {
			request, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CompileRequestJSON(request)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			expectedPath := strings.TrimSuffix(path, ".request.json") + ".expected.json"
			if updateGolden {
				if err := os.WriteFile(expectedPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(expectedPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s\n got %s\nwant %s", expectedPath, got, want)
			}
		})
	}
}

func TestCompileRequestRejectsMalformed(t *testing.T) {
	valid := `{"stack":{"id":"x","items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`
	if _, err := CompileRequestJSON([]byte(valid)); err != nil {
		t.Fatalf("valid request rejected: %v", err)
	}
	for _, bad := range []string{
		`not json`,
		`[]`,
		`{"stack":[],"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":1},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"yesterday"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":null,"messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[1]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":{}}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/","selectedTools":[1]},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/","skills":[{"name":"a"}]},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/","contextFiles":[{"path":"a"}]},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"model":{"provider":"p"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z","utcOffsetMinutes":1.5},"base":"","messages":[]}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[],"macros":{"a":1}}`,
		`{"stack":{"items":[]},"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":[],"macros":{"bad name":"x"}}`,
	} {
		if out, err := CompileRequestJSON([]byte(bad)); err == nil {
			t.Errorf("accepted malformed request %s → %s", bad, out)
		}
	}
}

func TestParseISOTime(t *testing.T) {
	for _, tc := range []struct{ in, utc, local string }{
		{"2026-11-29T22:05:09.123Z", "2026-11-29T22:05:09.123Z", "2026-11-29 22:05:09"},
		{"2026-11-29T22:05:09.1239Z", "2026-11-29T22:05:09.123Z", "2026-11-29 22:05:09"},
		{"2026-11-29T23:30+05:30", "2026-11-29T18:00:00.000Z", "2026-11-29 23:30:00"},
		{"2026-11-29", "2026-11-29T00:00:00.000Z", "2026-11-29 00:00:00"},
	} {
		got, err := ParseISOTime(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if isoString(got) != tc.utc || localDate(got)+" "+localTime(got) != tc.local {
			t.Errorf("%s → %s / %s %s", tc.in, isoString(got), localDate(got), localTime(got))
		}
	}
}
