package resources

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMoreReadFaults(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		globCaps + "big.json": `{"content":"` + strings.Repeat("x", maxCapabilitySize) + `"}`,
	})
	for _, dir := range []string{StorageDir(ws, KindPreset, ScopeGlobal), StorageDir(ws, KindProfile, ScopeGlobal)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(ws.ForgeDir, "gone.json"), filepath.Join(dir, "gone.json")); err != nil {
			t.Fatal(err)
		}
	}
	lib := mustLoad(t, ws)
	pGone := filepath.Join(StorageDir(ws, KindPreset, ScopeGlobal), "gone.json")
	prGone := filepath.Join(StorageDir(ws, KindProfile, ScopeGlobal), "gone.json")
	size := len(readBytes(t, wsPath(ws, globCaps+"big.json")))
	want := `preset global:gone gone.json
  error: Failed to read prompt stack: ENOENT: no such file or directory, open '` + pGone + `'
capability global:big big.json
  error: Capability capability file size (` + strconv.Itoa(size) + ` bytes) exceeds 1MiB limit.
profile global:gone gone.json
  error: Failed to read agent profile: ENOENT: no such file or directory, open '` + prGone + `'
`
	if got := summary(lib); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if p := lib.Presets[0]; !p.Fault || p.Stack.ID != "gone" || *p.Stack.Name != "gone.json" {
		t.Errorf("fault Preset must carry the fallback stack: %+v", p.Stack)
	}
}

func TestValidateFile(t *testing.T) {
	cases := []struct {
		kind  Kind
		scope Scope
		id    string
		data  string
		want  string // first message, "" = no error
	}{
		{KindPreset, ScopeProject, "a", stackJSON("a", ""), ""},
		{KindPreset, ScopeProject, "a", `{"id":"a"}`, "Preset must contain an items array."},
		{KindPreset, ScopeProject, "a", `{`, "Failed to parse JSON: "},
		{KindCapability, ScopeGlobal, "c", capJSON("c"), ""},
		{KindCapability, ScopeGlobal, "c", `{"schemaVersion":1,"type":"pi-forge.capability","id":"c","content":"x","extra":1}`, "Unsupported capability field: extra"},
		{KindProfile, ScopeGlobal, "r", profileJSON("r", ""), ""},
		{KindProfile, ScopeGlobal, "r", strings.Replace(profileJSON("r", ""), `"promptStack":null`, `"promptStack":"project:w"`, 1), "Global profile r cannot reference project prompt stack w."},
	}
	for _, c := range cases {
		first := ""
		for _, d := range ValidateFile(c.kind, c.scope, c.id, []byte(c.data)) {
			if d.Level == "error" {
				first = d.Message
				break
			}
		}
		if (c.want == "" && first != "") || !strings.HasPrefix(first, c.want) || (c.want != "" && first == "") {
			t.Errorf("%s %s: first error %q, want %q", c.kind, c.data, first, c.want)
		}
	}
}
