package subagent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// ConfigFileName is pi-subagent's configuration file (§22).
const ConfigFileName = "subagent.json"

// Defaults of the v5 configuration (§22, README).
const (
	DefaultAgentScope          = "user"
	DefaultMaxDepth            = 3
	DefaultMaxConcurrentAgents = 4
	DefaultMaxOutputBytes      = 51200
)

// maxSafeInteger is Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 9007199254740991

// Config keys in the order pi-subagent documents them.
var configKeys = []string{"agentScope", "maxDepth", "maxConcurrentAgents", "inheritExtensions", "openAIIdentity", "maxOutputBytes"}

// retiredKeys are keys older pi-subagent versions accepted, with what to do
// now (README migration table, §25.13).
var retiredKeys = map[string]string{
	"maxConcurrentBackgroundRuns": `renamed to "maxConcurrentAgents"`,
	"runtimeMode":                 "removed; delete it",
	"maxIdleRuntimes":             "removed; idle runtimes are unloaded automatically; delete it",
	"enableRunInBackground":       "removed; every agent runs asynchronously; delete it",
	"defaultBackground":           "removed; every agent runs asynchronously; delete it",
	"backgroundProtocol":          "removed; delete it",
	"syncBundledAgents":           "removed; no bundled roles are installed any more; delete it",
	"reportDelivery":              "removed; completions go to the parent's inbox; delete it",
}

// ConfigValues are effective settings: the same fields a descriptor
// records as the settings its agent was created with.
type ConfigValues = Settings

// DefaultConfig is pi-subagent's DEFAULT_SETTINGS.
func DefaultConfig() ConfigValues {
	return ConfigValues{AgentScope: DefaultAgentScope, MaxDepth: DefaultMaxDepth,
		MaxConcurrentAgents: DefaultMaxConcurrentAgents, MaxOutputBytes: DefaultMaxOutputBytes}
}

// Config scopes.
const (
	ScopeDefault = "default"
	ScopeUser    = "user"
	ScopeProject = "project"
)

// ConfigFile is one subagent.json that was looked for.
type ConfigFile struct {
	Scope string
	Path  string
	// Present is false when the file does not exist; Skipped explains why
	// an existing project file was not read (untrusted project).
	Present bool
	Skipped string
	// Keys are the settings the file sets, in file order.
	Keys []string
	// Errors are pi-subagent's messages for this file (it stops at the
	// first; forgebench lists them all). Hints are migration advice for
	// retired keys, one per retired key.
	Errors []string
	Hints  []string
}

// Config is the effective configuration and where each value came from.
type Config struct {
	Values ConfigValues
	// Sources maps each key to the scope that set it.
	Sources map[string]string
	Files   []ConfigFile
}

// Valid reports whether pi-subagent would load this configuration.
func (c *Config) Valid() bool {
	for _, f := range c.Files {
		if len(f.Errors) > 0 {
			return false
		}
	}
	return true
}

// maxConfigBytes bounds a subagent.json read (a settings file, never big).
const maxConfigBytes = 16 << 20

// LoadConfig reads <agentDir>/subagent.json and, when the project is
// trusted, the nearest <dir>/.pi/subagent.json walking up from cwd (only
// that one); the project file overrides field by field (§22). Invalid
// values are reported, never silently defaulted; a file with errors does
// not contribute its valid keys either (pi-subagent refuses it whole).
func LoadConfig(agentDir, cwd string, projectTrusted bool) *Config {
	c := &Config{Values: DefaultConfig(), Sources: map[string]string{}}
	for _, k := range configKeys {
		c.Sources[k] = ScopeDefault
	}
	user := ConfigFile{Scope: ScopeUser, Path: filepath.Join(agentDir, ConfigFileName)}
	c.apply(&user)
	c.Files = append(c.Files, user)
	project := ConfigFile{Scope: ScopeProject, Path: nearestProjectFile(cwd, ConfigFileName)}
	switch {
	case project.Path == "":
	case !projectTrusted:
		project.Present = true
		project.Skipped = "the project is not trusted"
		c.Files = append(c.Files, project)
	default:
		c.apply(&project)
		c.Files = append(c.Files, project)
	}
	return c
}

// nearestProjectFile walks up from cwd to the first <dir>/.pi/<name> that
// exists ("" when none).
func nearestProjectFile(cwd, name string) string {
	dir, err := filepath.Abs(cwd)
	if err != nil {
		dir = cwd
	}
	for {
		cand := filepath.Join(dir, ".pi", name)
		if _, err := os.Stat(cand); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// apply reads one file and, when it is valid, applies its values.
func (c *Config) apply(f *ConfigFile) {
	data, err := session.ReadRegularFile(f.Path, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	f.Present = true
	if err != nil {
		f.Errors = append(f.Errors, fmt.Sprintf("%s: %v", f.Path, err))
		return
	}
	vals, keys, errs, hints := parseConfig(data, f.Path, c.Values)
	f.Keys, f.Errors, f.Hints = keys, errs, hints
	if len(errs) > 0 {
		return
	}
	c.Values = vals
	for _, k := range keys {
		if k != "$schema" {
			c.Sources[k] = f.Scope
		}
	}
}

// parseConfig applies a config file's JSON over base, with pi-subagent's
// messages ("<file>: …").
func parseConfig(data []byte, file string, base ConfigValues) (ConfigValues, []string, []string, []string) {
	var errs, hints, keys []string
	fail := func(format string, args ...any) { errs = append(errs, file+": "+fmt.Sprintf(format, args...)) }
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	v, err := jsonv.Parse(data)
	if err != nil {
		fail("invalid JSON: %v", err)
		return base, nil, errs, nil
	}
	o, ok := v.(*jsonv.Object)
	if !ok {
		fail("configuration must be a JSON object")
		return base, nil, errs, nil
	}
	vals := base
	o.Range(func(key string, val any) bool {
		keys = append(keys, key)
		switch key {
		case "$schema":
		case "agentScope":
			s, _ := val.(string)
			if s != "user" && s != "project" && s != "both" {
				fail(`agentScope must be "user", "project", or "both"`)
			}
			vals.AgentScope = s
		case "maxDepth":
			vals.MaxDepth = configInteger(val, key, 0, maxSafeInteger, fail)
		case "maxConcurrentAgents":
			vals.MaxConcurrentAgents = configInteger(val, key, 1, maxSafeInteger, fail)
		case "maxOutputBytes":
			vals.MaxOutputBytes = configInteger(val, key, 1024, 1024*1024, fail)
		case "inheritExtensions":
			vals.InheritExtensions = configBool(val, key, fail)
		case "openAIIdentity":
			vals.OpenAIIdentity = configBool(val, key, fail)
		default:
			fail("unknown setting %q", key)
			if hint, retired := retiredKeys[key]; retired {
				hints = append(hints, fmt.Sprintf("%q is a retired pi-subagent setting: %s", key, hint))
			}
		}
		return true
	})
	return vals, keys, errs, hints
}

func configInteger(v any, key string, lo, hi float64, fail func(string, ...any)) float64 {
	f, ok := v.(float64)
	if !ok || !isSafeInteger(f) || f < lo || f > hi {
		fail("%s must be a safe integer between %s and %s", key, jsonv.Stringify(lo), jsonv.Stringify(hi))
		return 0
	}
	return f
}

func configBool(v any, key string, fail func(string, ...any)) bool {
	b, ok := v.(bool)
	if !ok {
		fail("%s must be a boolean", key)
	}
	return b
}
