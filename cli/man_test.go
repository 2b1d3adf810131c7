package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

func TestManPageCoversTheTree(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1795771048")
	code, page, errOut := runCLI(t, "man")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(page, `.TH FORGEBENCH 1 "2026-11-27" "forgebench dev" "User Commands"`+"\n.SH NAME\n") {
		t.Fatalf("title: %q", page[:min(len(page), 120)])
	}
	for _, section := range []string{"SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"} {
		if !strings.Contains(page, "\n.SH "+section+"\n") {
			t.Errorf("no %s section", section)
		}
	}
	// Every command, argument and flag of the tree, as roff writes it.
	esc := func(s string) string { return strings.ReplaceAll(s, ".", `\&.`) }
	parser, err := kong.New(&CLI{}, kong.Vars{"leaf_help": leafHelp})
	if err != nil {
		t.Fatal(err)
	}
	for _, node := range allNodes(parser.Model.Node) {
		if node.Hidden {
			if node.Type != kong.ApplicationNode && strings.Contains(page, `\fB`+node.Path()+`\fP`) {
				t.Errorf("hidden command %s is documented", node.Path())
			}
			continue
		}
		if node.Type != kong.ApplicationNode && !strings.Contains(page, `\fB`+node.Path()+`\fP`) {
			t.Errorf("no command %s", node.Path())
		}
		for _, a := range node.Positional {
			if !strings.Contains(page, "<"+a.Name+">") || !strings.Contains(page, esc(a.Help[:min(len(a.Help), 30)])) {
				t.Errorf("%s: argument %s is not described", node.Path(), a.Name)
			}
		}
		for _, f := range node.Flags {
			if !strings.Contains(page, `--`+esc(strings.TrimPrefix(f.Summary(), "--"))+`\fP`) {
				t.Errorf("%s: no flag %s", node.Path(), f.Summary())
			}
		}
	}
	for i, r := range page {
		if r > 127 || (r < 32 && r != '\n') {
			t.Fatalf("byte %d: %q is not plain ASCII roff", i, r)
		}
	}
	if strings.Contains(page, "%!") {
		t.Fatal("a format verb leaked into the text")
	}
}

func TestManPageRendersWithoutWarnings(t *testing.T) {
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("groff is not installed")
	}
	_, page, _ := runCLI(t, "man")
	cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("groff: %v\n%s", err, out)
	}
	cmd = exec.Command("groff", "-man", "-Tutf8", "-P-cbou") // plain text: no bold or underline by overstriking
	cmd.Stdin = strings.NewReader(page)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "preset show <selector>") || !strings.Contains(string(out), "--session=SESSION") {
		t.Fatalf("rendered page: %v\n%.2000s", err, out)
	}
}

func TestManDate(t *testing.T) {
	env := map[string]string{"SOURCE_DATE_EPOCH": "0"}
	if d := manDate(func(k string) string { return env[k] }); d.Format("2006-01-02") != "1970-01-01" {
		t.Fatalf("SOURCE_DATE_EPOCH: %v", d)
	}
	old := date
	date = "2026-03-04T05:06:07Z"
	t.Cleanup(func() { date = old })
	if d := manDate(func(string) string { return "" }); d.Format("2006-01-02") != "2026-03-04" {
		t.Fatalf("the build date: %v", d)
	}
}
