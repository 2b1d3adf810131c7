package subagent

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/forgebench/forgebench/session"
)

// MaxRoleFileBytes is the largest role file pi-subagent reads (§23).
const MaxRoleFileBytes = 256 * 1024

// BundledRoles030 are the roles pi-subagent 0.3.0 shipped inside its
// package (its README). The v5 release installs none; old sessions show
// them with source "bundled".
var BundledRoles030 = []string{"scout", "planner", "reviewer", "worker"}

// roleNamePattern is AGENT_NAME_PATTERN.
var roleNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) })

// mutationGroup is the one logical tool name pi-subagent accepts.
const mutationGroup = "$mutation"

// retiredTools maps tool names of older releases to their replacement
// (README migration table).
var retiredTools = map[string]string{
	"subagent":      "spawn_agent",
	"subagent_fork": "spawn_agent",
	"report":        "send_message",
}

// RoleDef is one role definition that loaded.
type RoleDef struct {
	Name        string
	Description string
	// Tools is the ordinary tool ceiling when HasTools ("none" gives an
	// empty list); without HasTools the default policy applies.
	Tools        []string
	HasTools     bool
	Model        string
	Thinking     string
	SystemPrompt string
	// Source is ScopeUser or ScopeProject.
	Source string
	File   string
	// Shadows lists the files of same-named roles this one overrides.
	Shadows []string
}

// RoleCatalog is the role catalog a session would see.
type RoleCatalog struct {
	// Scope is the agentScope used.
	Scope      string
	UserDir    string
	ProjectDir string
	// Roles in pi-subagent's order (first definition of a name decides
	// its position; a later source replaces it in place).
	Roles []RoleDef
	// Errors are pi-subagent's diagnostics for files it skipped; Warnings
	// are its note about an untrusted project and forgebench's own notes
	// (retired tool names, ignored fields).
	Errors   []string
	Warnings []string
}

// Valid reports whether every role file loaded.
func (c *RoleCatalog) Valid() bool { return len(c.Errors) == 0 }

// LoadRoles reads the role catalog like pi-subagent's discovery: user roles
// from <agentDir>/agents unless scope is "project", and, when scope is not
// "user" and the project is trusted, the nearest .pi/agents directory found
// walking up from cwd; project roles override user roles by name.
func LoadRoles(agentDir, cwd, scope string, projectTrusted bool) *RoleCatalog {
	c := &RoleCatalog{Scope: scope, UserDir: filepath.Join(agentDir, "agents")}
	if scope != ScopeUser {
		c.ProjectDir = nearestProjectDir(cwd, "agents")
		if !projectTrusted {
			// pi-subagent lists this among its diagnostics; nothing is
			// invalid, so forgebench keeps it a warning.
			c.Warnings = append(c.Warnings, "Project-local agents were not loaded because the project is not trusted.")
		}
	}
	index := map[string]int{}
	load := func(dir, source string) {
		for _, r := range c.loadDir(dir, source) {
			if k, ok := index[r.Name]; ok {
				r.Shadows = append(append([]string(nil), c.Roles[k].Shadows...), c.Roles[k].File)
				c.Roles[k] = r
				continue
			}
			index[r.Name] = len(c.Roles)
			c.Roles = append(c.Roles, r)
		}
	}
	if scope != ScopeProject {
		load(c.UserDir, ScopeUser)
	}
	if scope != ScopeUser && projectTrusted && c.ProjectDir != "" {
		load(c.ProjectDir, ScopeProject)
	}
	return c
}

// nearestProjectDir walks up from cwd to the first <dir>/.pi/<name> directory.
func nearestProjectDir(cwd, name string) string {
	dir, err := filepath.Abs(cwd)
	if err != nil {
		dir = cwd
	}
	for {
		cand := filepath.Join(dir, ".pi", name)
		if fi, err := os.Stat(cand); err == nil && fi.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// loadDir loads the *.md files of dir (files or symlinks) in name order.
func (c *RoleCatalog) loadDir(dir, source string) []RoleDef {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if !os.IsNotExist(err) {
			c.Errors = append(c.Errors, fmt.Sprintf("%s: %v", dir, err))
		}
		return nil
	}
	sort.SliceStable(ents, func(i, j int) bool { return localeLess(ents[i].Name(), ents[j].Name()) })
	var out []RoleDef
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".md") || !(e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0) {
			continue
		}
		r, errs, warns := parseRoleFile(filepath.Join(dir, e.Name()), source)
		c.Warnings = append(c.Warnings, warns...)
		if len(errs) > 0 {
			c.Errors = append(c.Errors, errs[0])
			continue
		}
		out = append(out, r)
	}
	return out
}

// localeLess approximates String.prototype.localeCompare for file names:
// case-insensitive first, then by bytes.
func localeLess(a, b string) bool {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if la != lb {
		return la < lb
	}
	return a < b
}

// parseRoleFile reads one role file. errs holds pi-subagent's messages (it
// reports only the first); warns are forgebench's notes.
func parseRoleFile(path, source string) (RoleDef, []string, []string) {
	r := RoleDef{Source: source, File: path}
	fi, err := os.Stat(path)
	if err != nil {
		return r, []string{fmt.Sprintf("%s: %v", path, err)}, nil
	}
	if fi.Size() > MaxRoleFileBytes {
		return r, []string{fmt.Sprintf("%s: agent definition exceeds %d bytes", path, MaxRoleFileBytes)}, nil
	}
	// A FIFO or a symlink to a device would block or stream forever.
	data, err := session.ReadRegularFile(path, MaxRoleFileBytes)
	if err != nil {
		return r, []string{fmt.Sprintf("%s: %v", path, err)}, nil
	}
	return ParseRole(data, path, source)
}

// ParseRole parses role Markdown (Pi's parseFrontmatter, then pi-subagent's
// rules, §23). file names the source in messages.
func ParseRole(data []byte, file, source string) (RoleDef, []string, []string) {
	r := RoleDef{Source: source, File: file}
	var errs, warns []string
	fail := func(format string, args ...any) { errs = append(errs, file+": "+fmt.Sprintf(format, args...)) }
	front, body, err := parseFrontmatter(data)
	if err != nil {
		fail("invalid frontmatter: %v", err)
		return r, errs, warns
	}
	name, _ := optionalString(front["name"])
	if name == "" || !roleNamePattern().MatchString(name) {
		fail("name must match /%s/", roleNamePattern().String())
	}
	r.Name = name
	r.Description, _ = optionalString(front["description"])
	if r.Description == "" {
		fail("description is required")
	}
	r.SystemPrompt = strings.TrimSpace(body)
	if r.SystemPrompt == "" {
		fail("agent system prompt is empty")
	}
	if raw, present := front["tools"]; present {
		tools, isString := optionalString(raw)
		if !isString && raw != nil {
			warns = append(warns, fmt.Sprintf("%s: tools is not a comma-separated string; pi-subagent ignores it (no ceiling)", file))
		}
		r.Tools, r.HasTools, errs, warns = parseTools(tools, file, errs, warns)
	}
	r.Model, _ = optionalString(front["model"])
	if t, _ := optionalString(front["thinking"]); t != "" {
		if !thinkingLevels[t] {
			fail("unsupported thinking level %q", t)
		}
		r.Thinking = t
	}
	return r, errs, warns
}

// optionalString is pi-subagent's optionalString: a non-empty trimmed
// string, else "". isString reports whether the value was a string at all.
func optionalString(v any) (string, bool) {
	s, ok := v.(string)
	return strings.TrimSpace(s), ok
}

// parseTools reads the comma-separated tool ceiling.
func parseTools(raw, file string, errs, warns []string) ([]string, bool, []string, []string) {
	if raw == "" || raw == "*" || strings.EqualFold(raw, "all") {
		return nil, false, errs, warns
	}
	if strings.EqualFold(raw, "none") {
		return []string{}, true, errs, warns
	}
	seen := map[string]bool{}
	var tools []string
	for _, t := range strings.Split(raw, ",") {
		t = strings.TrimSpace(t)
		if t != "" && !seen[t] {
			seen[t] = true
			tools = append(tools, t)
		}
	}
	if len(tools) == 0 {
		return nil, false, append(errs, fmt.Sprintf(`%s: tools must name at least one tool, "all", or "none"`, file)), warns
	}
	for _, t := range tools {
		switch {
		case strings.HasPrefix(t, "$") && t != mutationGroup:
			errs = append(errs, fmt.Sprintf("%s: tools contains unsupported logical tool %q; supported logical tools: %s", file, t, mutationGroup))
		case strings.ContainsAny(t, "*?") || strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-"):
			warns = append(warns, fmt.Sprintf("%s: tools entry %q is not an exact tool name (wildcards and +name/-name modifiers are not supported)", file, t))
		case retiredTools[t] != "":
			warns = append(warns, fmt.Sprintf("%s: tools names the retired tool %q; use %q", file, t, retiredTools[t]))
		}
	}
	return tools, true, errs, warns
}

// parseFrontmatter is Pi's parseFrontmatter: BOM stripped, newlines
// normalized, YAML between a leading "---" and the next "\n---", body the
// rest trimmed. No frontmatter gives an empty map and the whole text.
func parseFrontmatter(data []byte) (map[string]any, string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	if !strings.HasPrefix(text, "---") {
		return map[string]any{}, text, nil
	}
	end := strings.Index(text[3:], "\n---")
	if end < 0 {
		return map[string]any{}, text, nil
	}
	end += 3
	yamlText := ""
	if end > 4 {
		yamlText = text[4:end]
	}
	body := strings.TrimSpace(text[end+4:])
	var front any
	if err := yaml.Unmarshal([]byte(yamlText), &front); err != nil {
		return nil, "", err
	}
	m, ok := front.(map[string]any)
	if !ok {
		m = map[string]any{}
	}
	return m, body, nil
}
