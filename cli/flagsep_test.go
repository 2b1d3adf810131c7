package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// A repeated flag takes the whole value: kong would split it on commas,
// which breaks a JSON object, a sentence and a tool name pi-forge accepts
// (issue 23, item 4).
func TestRepeatedFlagsTakeTheWholeValue(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "t.tmpl")
	if err := os.WriteFile(tmpl, []byte(`{{ parameters.g }}|{{ parameters.obj.b }}|{{ parameters.list | json }}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "template", "render", tmpl,
		"--param", "g=Hi, Ada", "--param-json", `obj={"a":1,"b":2}`, "--param-json", `list=[1,2]`)
	if code != exitOK || out != "Hi, Ada|2|[1,2]" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "template", "render", tmpl,
		"-p", "g=a,b", "--param-json=obj={\"b\":\"x,y\"}", "--param-json", "list=[]")
	if code != exitOK || out != "a,b|x,y|[]" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
}

func TestCapabilityNewToolFlagsTakeTheWholeName(t *testing.T) {
	var cmd struct {
		New CapabilityNewCmd `cmd:""`
	}
	parser, err := kong.New(&cmd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"new", "x", "--add", "a,b", "--add", "c", "--remove", "d,e"}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cmd.New.Add, []string{"a,b", "c"}) || !reflect.DeepEqual(cmd.New.Remove, []string{"d,e"}) {
		t.Fatalf("add %q remove %q", cmd.New.Add, cmd.New.Remove)
	}
}

// Every slice flag of the tree either takes the whole value (sep:"none")
// or says in its help that it splits on commas, so a new repeated flag
// cannot split silently.
func TestEverySliceFlagSaysHowItSplits(t *testing.T) {
	parser, err := kong.New(&CLI{}, kong.Vars{"leaf_help": leafHelp})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, node := range allNodes(parser.Model.Node) {
		for _, f := range node.Flags {
			if f.Target.Kind() != reflect.Slice {
				continue
			}
			seen++
			if f.Tag.Sep != -1 && !strings.Contains(f.Help, "comma-separated") {
				t.Errorf("%s --%s splits on %q but its help does not say so", node.Path(), f.Name, f.Tag.Sep)
			}
			if f.Tag.Sep == -1 && !strings.Contains(f.Help, "repeat") {
				t.Errorf("%s --%s takes one value each time; its help should say to repeat it", node.Path(), f.Name)
			}
		}
	}
	if seen < 4 {
		t.Fatalf("found %d slice flags; the walk is broken", seen)
	}
}

func allNodes(n *kong.Node) []*kong.Node {
	out := []*kong.Node{n}
	for _, c := range n.Children {
		out = append(out, allNodes(c)...)
	}
	return out
}
