package demo

// The generated part of the workspace (every JSON and JSONL file except the
// project's package.json) is produced by the generator in the *_test.go files
// of this package. TestWorkspaceMatchesGenerator keeps the committed files and
// the generator in sync; run it with FORGEBENCH_DEMO_REGENERATE=1 to rewrite
// the files after changing the generator or a hand-written source file.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sessionDirRel is the embedded session directory (named by its placeholder).
const sessionDirRel = agentRel + "/sessions/" + TokenSessionDir

// handWritten lists the JSON files of the workspace that are not generated.
var handWritten = []string{projectRel + "/package.json"}

// loadSources reads the hand-written workspace files that sessions quote.
func loadSources(t *testing.T) sources {
	t.Helper()
	read := func(rel string) string {
		data, err := os.ReadFile(filepath.Join(workspaceRoot, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatalf("read workspace source: %v", err)
		}
		return string(data)
	}
	role := read(agentRel + "/agents/reviewer.md")
	parts := strings.SplitN(role, "\n---\n", 2)
	if len(parts) != 2 {
		t.Fatalf("agents/reviewer.md has no front matter end")
	}
	return sources{
		agentsMD:      read(projectRel + "/AGENTS.md"),
		systemMD:      read(agentRel + "/SYSTEM.md"),
		roleReviewer:  strings.TrimSpace(parts[1]),
		invoiceTS:     read(projectRel + "/src/invoice.ts"),
		moneyTS:       read(projectRel + "/src/money.ts"),
		invoiceTestTS: read(projectRel + "/test/invoice.test.ts"),
		readmeMD:      read(projectRel + "/README.md"),
	}
}

// generatedFiles renders every generated file, keyed by its path relative to
// the workspace root.
func generatedFiles(src sources) map[string][]byte {
	files := resourceFiles()
	guarded := guardedSession(src)
	for _, s := range []*sessionBuilder{guarded, mirrorSession(src)} {
		files[sessionDirRel+"/"+s.fileName()] = s.bytes()
	}
	for rel, data := range savedPayloads(guarded.bytes()) {
		files[rel] = data
	}
	tree := buildSubagentTree(src)
	files[sessionDirRel+"/"+tree.root.fileName()] = tree.root.bytes()
	treeRel := sessionDirRel + "/" + tree.root.id + ".subagents/" + tree.treeID
	files[treeRel+"/state.json"] = []byte(jsStringify(tree.state) + "\n")
	for _, child := range tree.children {
		files[treeRel+"/sessions/"+child.fileName()] = child.bytes()
	}
	return files
}

// workspaceJSONFiles lists the JSON and JSONL files committed in the workspace.
func workspaceJSONFiles(t *testing.T) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(workspaceRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isJSONFile(p) {
			rel, relErr := filepath.Rel(workspaceRoot, p)
			if relErr != nil {
				return relErr
			}
			found = append(found, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk workspace: %v", err)
	}
	return found
}

func TestWorkspaceMatchesGenerator(t *testing.T) {
	files := generatedFiles(loadSources(t))
	if os.Getenv("FORGEBENCH_DEMO_REGENERATE") == "1" {
		for _, rel := range workspaceJSONFiles(t) {
			if _, keep := files[rel]; !keep && !slices.Contains(handWritten, rel) {
				if err := os.Remove(filepath.Join(workspaceRoot, filepath.FromSlash(rel))); err != nil {
					t.Fatalf("remove stale file: %v", err)
				}
			}
		}
		for rel, data := range files {
			target := filepath.Join(workspaceRoot, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatalf("create directory: %v", err)
			}
			if err := os.WriteFile(target, data, 0o644); err != nil {
				t.Fatalf("write generated file: %v", err)
			}
		}
	}
	for rel, want := range files {
		got, err := os.ReadFile(filepath.Join(workspaceRoot, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("generated file missing from the workspace (run with FORGEBENCH_DEMO_REGENERATE=1): %v", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator output (run with FORGEBENCH_DEMO_REGENERATE=1)", rel)
		}
	}
	for _, rel := range workspaceJSONFiles(t) {
		if _, ok := files[rel]; !ok && !slices.Contains(handWritten, rel) {
			t.Errorf("%s is not produced by the generator", rel)
		}
	}
}
