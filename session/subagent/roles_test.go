package subagent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
)

func TestRolesFrom030Fixture(t *testing.T) {
	agents := fixtures.Path(t, "pi-subagent/upstream-omp-0.3.0/agents")
	// Use the fixture directory as a user agents dir.
	agentDir := t.TempDir()
	if err := os.Symlink(agents, filepath.Join(agentDir, "agents")); err != nil {
		t.Fatal(err)
	}
	c := LoadRoles(agentDir, agentDir, ScopeUser, false)
	if !c.Valid() {
		t.Fatalf("errors %q", c.Errors)
	}
	var names []string
	for _, r := range c.Roles {
		names = append(names, r.Name)
	}
	// Name order: planner, reviewer, scout, worker.
	if strings.Join(names, ",") != "planner,reviewer,scout,worker" {
		t.Errorf("roles %v", names)
	}
	worker := c.Roles[3]
	if !worker.HasTools || worker.Tools[5] != "$mutation" || worker.Thinking != "high" || worker.Source != ScopeUser {
		t.Errorf("worker %+v", worker)
	}
	// worker names the retired 0.3.0 tools subagent and subagent_fork.
	warn := strings.Join(c.Warnings, "\n")
	if !strings.Contains(warn, `retired tool "subagent"; use "spawn_agent"`) || !strings.Contains(warn, `retired tool "subagent_fork"`) {
		t.Errorf("warnings %q", c.Warnings)
	}
	if c.Roles[0].SystemPrompt == "" || strings.HasPrefix(c.Roles[0].SystemPrompt, "\n") {
		t.Errorf("body not trimmed: %q", c.Roles[0].SystemPrompt)
	}
}

func TestRoleRulesAndScopes(t *testing.T) {
	dir := t.TempDir()
	agentDir := filepath.Join(dir, "agent")
	proj := filepath.Join(dir, "proj")
	user := filepath.Join(agentDir, "agents")
	files := map[string]string{
		"a-ok.md":       "---\nname: reviewer\ndescription: Reads\ntools: read, grep, read\nthinking: high\n---\n\nReview.\n",
		"b-noname.md":   "---\ndescription: x\n---\nbody",
		"c-badname.md":  "---\nname: -bad\ndescription: x\n---\nbody",
		"d-nodesc.md":   "---\nname: nodesc\n---\nbody",
		"e-nobody.md":   "---\nname: nobody\ndescription: x\n---\n   \n",
		"f-tools.md":    "---\nname: tools\ndescription: x\ntools: \"$edit\"\n---\nbody",
		"g-think.md":    "---\nname: think\ndescription: x\nthinking: extreme\n---\nbody",
		"h-none.md":     "---\r\nname: none\r\ndescription: x\r\ntools: none\r\n---\r\nbody\r\n",
		"i-yaml.md":     "---\nname: [unclosed\n---\nbody",
		"j-list.md":     "---\nname: listtools\ndescription: x\ntools: [read, grep]\n---\nbody",
		"k-star.md":     "---\nname: star\ndescription: x\ntools: read, git*\n---\nbody",
		"l-nofront.md":  "just text",
		"m-number.md":   "---\nname: 42\ndescription: x\n---\nbody",
		"notes.txt":     "ignored",
		"n-override.md": "---\nname: shared\ndescription: user version\n---\nbody",
	}
	for name, content := range files {
		writeFile(t, filepath.Join(user, name), content)
	}
	writeFile(t, filepath.Join(user, "big.md"), "---\nname: big\ndescription: x\n---\n"+strings.Repeat("x", MaxRoleFileBytes))
	writeFile(t, filepath.Join(proj, ".pi", "agents", "shared.md"), "---\nname: shared\ndescription: project version\n---\nbody")
	c := LoadRoles(agentDir, proj, "both", true)
	errs := strings.Join(c.Errors, "\n")
	for _, want := range []string{
		"b-noname.md: name must match /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/",
		"c-badname.md: name must match",
		"d-nodesc.md: description is required",
		"e-nobody.md: agent system prompt is empty",
		`f-tools.md: tools contains unsupported logical tool "$edit"; supported logical tools: $mutation`,
		`g-think.md: unsupported thinking level "extreme"`,
		"i-yaml.md: invalid frontmatter",
		"l-nofront.md: name must match",
		"m-number.md: name must match",
		"big.md: agent definition exceeds 262144 bytes",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors lack %q:\n%s", want, errs)
		}
	}
	byName := map[string]RoleDef{}
	for _, r := range c.Roles {
		byName[r.Name] = r
	}
	if r := byName["reviewer"]; len(r.Tools) != 2 || r.Thinking != "high" || r.SystemPrompt != "Review." {
		t.Errorf("reviewer %+v (tools de-duplicated)", r)
	}
	if r := byName["none"]; !r.HasTools || len(r.Tools) != 0 || r.SystemPrompt != "body" {
		t.Errorf("CRLF role with tools: none: %+v", r)
	}
	if r := byName["listtools"]; r.HasTools || !strings.Contains(strings.Join(c.Warnings, "\n"), "j-list.md: tools is not a comma-separated string") {
		t.Errorf("list-valued tools: %+v %q", r, c.Warnings)
	}
	if !strings.Contains(strings.Join(c.Warnings, "\n"), `"git*" is not an exact tool name`) {
		t.Errorf("wildcard not warned: %q", c.Warnings)
	}
	// The project role replaces the user role in place.
	if r := byName["shared"]; r.Source != ScopeProject || r.Description != "project version" || len(r.Shadows) != 1 {
		t.Errorf("override %+v", r)
	}
	// scope user ignores the project; project ignores the user; an
	// untrusted project is reported.
	if u := LoadRoles(agentDir, proj, ScopeUser, true); u.ProjectDir != "" || findRole(u, "shared").Source != ScopeUser {
		t.Error("scope user read the project")
	}
	if p := LoadRoles(agentDir, proj, ScopeProject, true); len(p.Roles) != 1 || p.Roles[0].Source != ScopeProject {
		t.Errorf("scope project: %+v", p.Roles)
	}
	if un := LoadRoles(agentDir, proj, "both", false); !strings.Contains(strings.Join(un.Warnings, "\n"), "Project-local agents were not loaded because the project is not trusted.") {
		t.Error("untrusted project not reported")
	}
}

func findRole(c *RoleCatalog, name string) RoleDef {
	for _, r := range c.Roles {
		if r.Name == name {
			return r
		}
	}
	return RoleDef{}
}

func FuzzParseRole(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: read, $mutation\n---\nbody"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nname: &a [*a]\n---\nx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, errs, _ := ParseRole(data, "f.md", ScopeUser)
		if len(errs) == 0 && (!roleNamePattern().MatchString(r.Name) || r.Description == "" || r.SystemPrompt == "") {
			t.Fatalf("accepted an invalid role %+v", r)
		}
	})
}
