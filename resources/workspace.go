package resources

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Dirs are the directories a workspace is resolved from. Empty fields fall
// back to the environment and then to Pi's and pi-forge's defaults.
type Dirs struct {
	Cwd      string // project working directory; "" = process cwd
	AgentDir string // Pi agent dir; "" = $PI_CODING_AGENT_DIR or ~/.pi/agent
	ForgeDir string // pi-forge global dir; "" = $PI_FORGE_GLOBAL_DIR or ~/.pi/forge
}

// TrustOverride forces project trust for one run (--trust / --no-trust),
// mirroring Pi's --approve / --no-approve.
type TrustOverride int

// Trust override values.
const (
	TrustFromPi TrustOverride = iota
	TrustForce
	TrustDeny
)

// Trust is the resolved project trust and the rule that decided it.
type Trust struct {
	Trusted bool
	// Source names the deciding rule: "flag", "no-trust-resources",
	// "trust.json <dir>", "trust.json invalid", "defaultProjectTrust always|never",
	// "ask (no saved decision)".
	Source string
}

// Workspace is the resolved, immutable description of where the workbench
// reads and writes. It is computed once per load and replaced whole.
type Workspace struct {
	Cwd      string // absolute
	AgentDir string // absolute
	ForgeDir string // absolute
	Trust    Trust
}

// Env abstracts the process environment so resolution is testable.
type Env struct {
	Getenv  func(string) string
	HomeDir func() (string, error)
	Getwd   func() (string, error)
}

// OSEnv is the real process environment.
func OSEnv() Env { return Env{Getenv: os.Getenv, HomeDir: os.UserHomeDir, Getwd: os.Getwd} }

// ResolveDirs fills the defaults of d the way Pi and pi-forge do and makes
// every path absolute.
func ResolveDirs(d Dirs, env Env) (Dirs, error) {
	home := func() (string, error) {
		h, err := env.HomeDir()
		if err != nil {
			return "", fmt.Errorf("resolve home directory: %w", err)
		}
		return h, nil
	}
	if d.Cwd == "" {
		wd, err := env.Getwd()
		if err != nil {
			return d, fmt.Errorf("resolve working directory: %w", err)
		}
		d.Cwd = wd
	}
	if d.AgentDir == "" {
		if v := env.Getenv("PI_CODING_AGENT_DIR"); v != "" {
			d.AgentDir = v
		} else {
			h, err := home()
			if err != nil {
				return d, err
			}
			d.AgentDir = filepath.Join(h, ".pi", "agent")
		}
	}
	if d.ForgeDir == "" {
		if v := env.Getenv("PI_FORGE_GLOBAL_DIR"); v != "" {
			d.ForgeDir = v
		} else {
			h, err := home()
			if err != nil {
				return d, err
			}
			d.ForgeDir = filepath.Join(h, ".pi", "forge")
		}
	}
	for _, p := range []*string{&d.Cwd, &d.AgentDir, &d.ForgeDir} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			return d, fmt.Errorf("make %s absolute: %w", *p, err)
		}
		*p = abs
	}
	return d, nil
}

// OpenWorkspace resolves the directories and the project trust. It only
// reads: forgebench never writes trust.json.
func OpenWorkspace(d Dirs, override TrustOverride, env Env) (Workspace, error) {
	d, err := ResolveDirs(d, env)
	if err != nil {
		return Workspace{}, err
	}
	home, _ := env.HomeDir()
	return Workspace{
		Cwd: d.Cwd, AgentDir: d.AgentDir, ForgeDir: d.ForgeDir,
		Trust: ResolveTrust(d.Cwd, d.AgentDir, home, override),
	}, nil
}

// trustRequiring lists the entries directly under <cwd>/.pi whose presence
// makes Pi ask for trust.
var trustRequiring = []string{"settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md"}

// ResolveTrust evaluates Pi's project-trust order without prompting: the
// override flag, then (when the cwd has no trust-requiring resources) a saved
// false or else trusted, then the nearest saved decision in trust.json, then
// the global defaultProjectTrust, where "ask" with nothing saved is untrusted
// as in Pi without a UI.
func ResolveTrust(cwd, agentDir, home string, override TrustOverride) Trust {
	switch override {
	case TrustForce:
		return Trust{Trusted: true, Source: "flag"}
	case TrustDeny:
		return Trust{Trusted: false, Source: "flag"}
	}
	real := canonicalPath(cwd)
	saved, savedDir, hasSaved, valid := nearestTrustDecision(filepath.Join(agentDir, "trust.json"), real)
	if !valid {
		// Pi throws on a trust.json it cannot read; never guess past it.
		return Trust{Trusted: false, Source: "trust.json invalid"}
	}
	if !hasTrustRequiringResources(real, home) {
		if hasSaved && !saved {
			return Trust{Trusted: false, Source: "trust.json " + savedDir}
		}
		return Trust{Trusted: true, Source: "no-trust-resources"}
	}
	if hasSaved {
		return Trust{Trusted: saved, Source: "trust.json " + savedDir}
	}
	switch defaultProjectTrust(filepath.Join(agentDir, "settings.json")) {
	case "always":
		return Trust{Trusted: true, Source: "defaultProjectTrust always"}
	case "never":
		return Trust{Trusted: false, Source: "defaultProjectTrust never"}
	}
	return Trust{Trusted: false, Source: "ask (no saved decision)"}
}

// canonicalPath is Pi's canonicalizePath: the real path when it can be
// resolved, else the path itself.
func canonicalPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// hasTrustRequiringResources is Pi's hasTrustRequiringProjectResources on a
// canonical cwd: a trust-requiring entry in <cwd>/.pi, or a .agents/skills
// entry (Pi tests it with existsSync) in the cwd or any ancestor other than
// the user's own <home>/.agents/skills, compared on canonical paths.
func hasTrustRequiringResources(cwd, home string) bool {
	for _, name := range trustRequiring {
		if _, err := os.Lstat(filepath.Join(cwd, ".pi", name)); err == nil {
			return true
		}
	}
	skipped := ""
	if home != "" {
		skipped = filepath.Join(canonicalPath(home), ".agents", "skills")
	}
	for dir := cwd; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, ".agents", "skills")
		if p != skipped {
			if _, err := os.Stat(p); err == nil {
				return true
			}
		}
		if parent := filepath.Dir(dir); parent == dir {
			return false
		}
	}
}

// nearestTrustDecision walks from dir to the root and returns the nearest
// true/false saved in trust.json (null means no decision). valid is false
// when the file exists but is not a JSON object of true/false/null values,
// which Pi refuses to use.
func nearestTrustDecision(trustFile, dir string) (trusted bool, at string, ok, valid bool) {
	raw, err := readRegularFile(trustFile)
	if err != nil {
		return false, "", false, errors.Is(err, fs.ErrNotExist)
	}
	var m map[string]*bool
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return false, "", false, false
	}
	for d := dir; ; d = filepath.Dir(d) {
		if v, found := m[d]; found && v != nil {
			return *v, d, true, true
		}
		if parent := filepath.Dir(d); parent == d {
			return false, "", false, true
		}
	}
}

func defaultProjectTrust(settingsFile string) string {
	raw, err := readRegularFile(settingsFile)
	if err != nil {
		return "ask"
	}
	raw = trimBOM(raw)
	var s struct {
		DefaultProjectTrust string `json:"defaultProjectTrust"`
	}
	if json.Unmarshal(raw, &s) != nil || s.DefaultProjectTrust == "" {
		return "ask"
	}
	return s.DefaultProjectTrust
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}
