package common

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestEditorArgsPreferVisualThenEditorThenVi(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"VISUAL": "code -w", "EDITOR": "nano"}, []string{"code", "-w"}},
		{map[string]string{"VISUAL": "  ", "EDITOR": "nano -R"}, []string{"nano", "-R"}},
		{map[string]string{}, []string{"vi"}},
	} {
		if got := EditorArgs(func(k string) string { return c.env[k] }); !slices.Equal(got, c.want) {
			t.Errorf("env %v: %q, want %q", c.env, got, c.want)
		}
	}
}

// editorDone is what a panel would get back.
type editorDone struct {
	text string
	err  error
}

func runEditor(t *testing.T, e EnvEditor, text string) editorDone {
	t.Helper()
	msg := e.Edit(text, "forgebench-test-*.md", func(s string, err error) tea.Msg { return editorDone{s, err} })()
	d, ok := msg.(editorDone)
	if !ok {
		t.Fatalf("Edit delivered %T", msg)
	}
	return d
}

// EnvEditor runs the program the environment names on a temporary file
// holding the text, reads back what it left and removes the file; a
// program that fails is reported by name and its file is removed too.
func TestEnvEditorRunsTheProgramOnATemporaryFile(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ed.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncp \"$2\" \""+dir+"/seen\"\nprintf 'after\\n' > \"$2\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var file string
	run := func(cmd *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		file = cmd.Args[len(cmd.Args)-1]
		return func() tea.Msg { return done(cmd.Run()) }
	}
	e := EnvEditor{Getenv: func(k string) string { return map[string]string{"EDITOR": script + " --flag"}[k] }, Exec: run}
	d := runEditor(t, e, "before")
	if d.err != nil || d.text != "after\n" {
		t.Fatalf("got %q, %v", d.text, d.err)
	}
	if seen, _ := os.ReadFile(filepath.Join(dir, "seen")); string(seen) != "before" {
		t.Fatalf("the editor saw %q, want the text handed over", seen)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Error("the temporary file outlived the hand-off")
	}
	e.Getenv = func(k string) string { return map[string]string{"VISUAL": "false"}[k] }
	d = runEditor(t, e, "before")
	if d.err == nil || !strings.Contains(d.err.Error(), "editor false") {
		t.Fatalf("a failing editor: %v", d.err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Error("the temporary file of a failed hand-off outlived it")
	}
}

// Common.ExternalEditor is the fake a test put in Editor, else the
// user's editor run through Common.Exec.
func TestCommonExternalEditorIsReplaceable(t *testing.T) {
	c := &Common{}
	if _, ok := c.ExternalEditor().(EnvEditor); !ok {
		t.Fatalf("default editor is %T", c.ExternalEditor())
	}
	fake := EnvEditor{Getenv: func(string) string { return "" }}
	c.Editor = fake
	if got, ok := c.ExternalEditor().(EnvEditor); !ok || got.Getenv == nil {
		t.Fatal("Common.Editor is not the one used")
	}
}
