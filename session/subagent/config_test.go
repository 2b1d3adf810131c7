package subagent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestConfigDefaultsAndOverride(t *testing.T) {
	dir := t.TempDir()
	agentDir := filepath.Join(dir, "agent")
	cwd := filepath.Join(dir, "proj", "sub")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	c := LoadConfig(agentDir, cwd, true)
	if !c.Valid() || c.Values != DefaultConfig() || c.Sources["maxDepth"] != ScopeDefault {
		t.Fatalf("defaults: %+v", c)
	}
	writeFile(t, filepath.Join(agentDir, ConfigFileName), `{"$schema":"./config.schema.json","maxDepth":5,"maxConcurrentAgents":8,"agentScope":"both"}`)
	// The nearest .pi/subagent.json walking up from cwd is the project's.
	writeFile(t, filepath.Join(dir, "proj", ".pi", ConfigFileName), `{"maxConcurrentAgents":2,"inheritExtensions":true}`)
	c = LoadConfig(agentDir, cwd, true)
	want := ConfigValues{AgentScope: "both", MaxDepth: 5, MaxConcurrentAgents: 2, InheritExtensions: true, MaxOutputBytes: DefaultMaxOutputBytes}
	if !c.Valid() || c.Values != want {
		t.Fatalf("merged %+v, want %+v (%+v)", c.Values, want, c.Files)
	}
	if c.Sources["maxDepth"] != ScopeUser || c.Sources["maxConcurrentAgents"] != ScopeProject || c.Sources["openAIIdentity"] != ScopeDefault {
		t.Errorf("sources %v", c.Sources)
	}
	// An untrusted project's file is not read.
	c = LoadConfig(agentDir, cwd, false)
	if c.Values.MaxConcurrentAgents != 8 || len(c.Files) != 2 || c.Files[1].Skipped == "" {
		t.Errorf("untrusted project applied: %+v %+v", c.Values, c.Files)
	}
}

func TestConfigErrorsUseSubagentMessages(t *testing.T) {
	cases := map[string][]string{
		`{"agentScope":"team"}`:           {`: agentScope must be "user", "project", or "both"`},
		`{"maxDepth":-1}`:                 {": maxDepth must be a safe integer between 0 and 9007199254740991"},
		`{"maxDepth":1.5}`:                {": maxDepth must be a safe integer between 0 and 9007199254740991"},
		`{"maxConcurrentAgents":0}`:       {": maxConcurrentAgents must be a safe integer between 1 and 9007199254740991"},
		`{"maxOutputBytes":1023}`:         {": maxOutputBytes must be a safe integer between 1024 and 1048576"},
		`{"maxOutputBytes":"51200"}`:      {": maxOutputBytes must be a safe integer between 1024 and 1048576"},
		`{"inheritExtensions":"yes"}`:     {": inheritExtensions must be a boolean"},
		`{"openAIIdentity":1}`:            {": openAIIdentity must be a boolean"},
		`{"colour":"blue"}`:               {`: unknown setting "colour"`},
		`[1]`:                             {": configuration must be a JSON object"},
		`{"maxDepth":`:                    {": invalid JSON: "},
		`{"maxDepth":2,"maxDepth":"two"}`: {": maxDepth must be a safe integer"},
	}
	for content, wants := range cases {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, ConfigFileName), content)
		c := LoadConfig(dir, dir, false)
		if c.Valid() {
			t.Errorf("%s: valid", content)
			continue
		}
		got := strings.Join(c.Files[0].Errors, "\n")
		for _, w := range wants {
			if !strings.Contains(got, filepath.Join(dir, ConfigFileName)+w) {
				t.Errorf("%s: errors %q lack %q", content, got, w)
			}
		}
		if c.Values != DefaultConfig() {
			t.Errorf("%s: an invalid file changed the values: %+v", content, c.Values)
		}
	}
}

// The 0.3.0 example config carries four retired keys: each is an error
// with a migration hint.
func TestConfigRetiredKeysFrom030(t *testing.T) {
	data := fixtures.Read(t, "pi-subagent/upstream-omp-0.3.0/config.example.json")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ConfigFileName), string(data))
	c := LoadConfig(dir, dir, false)
	f := c.Files[0]
	if c.Valid() || len(f.Errors) != 4 || len(f.Hints) != 4 {
		t.Fatalf("errors %q hints %q", f.Errors, f.Hints)
	}
	for _, key := range []string{"syncBundledAgents", "enableRunInBackground", "defaultBackground", "reportDelivery"} {
		if !strings.Contains(strings.Join(f.Errors, "\n"), `unknown setting "`+key+`"`) || !strings.Contains(strings.Join(f.Hints, "\n"), `"`+key+`" is a retired`) {
			t.Errorf("%s: no error or hint", key)
		}
	}
	renamed := t.TempDir()
	writeFile(t, filepath.Join(renamed, ConfigFileName), `{"maxConcurrentBackgroundRuns":3}`)
	if h := LoadConfig(renamed, renamed, false).Files[0].Hints; len(h) != 1 || !strings.Contains(h[0], `renamed to "maxConcurrentAgents"`) {
		t.Errorf("rename hint %q", h)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"agentScope":"both","maxDepth":3}`))
	f.Add([]byte(`{"maxOutputBytes":1e400}`))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, _, errs, _ := parseConfig(data, "f", DefaultConfig())
		if len(errs) == 0 {
			if vals.AgentScope != "user" && vals.AgentScope != "project" && vals.AgentScope != "both" {
				t.Fatalf("accepted agentScope %q", vals.AgentScope)
			}
			if vals.MaxOutputBytes < 1024 || vals.MaxOutputBytes > 1<<20 || vals.MaxConcurrentAgents < 1 || vals.MaxDepth < 0 {
				t.Fatalf("accepted out-of-range values %+v", vals)
			}
		}
	})
}
