package session

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sessiondir"
)

// Environment variables that locate Pi's files (spec §1.1, §14).
const (
	EnvAgentDir   = "PI_CODING_AGENT_DIR"
	EnvSessionDir = "PI_CODING_AGENT_SESSION_DIR"
)

// Where a custom session directory came from (Locations.SessionDirSource).
const (
	SessionDirFromFlag            = "flag"
	SessionDirFromEnv             = "env"
	SessionDirFromProjectSettings = "project-settings"
	SessionDirFromGlobalSettings  = "global-settings"
)

// subagentsSuffix ends the name of a pi-subagent tree directory that sits
// next to its root session file (spec §16).
const subagentsSuffix = ".subagents"

// Locations are the resolved directories discovery looks in.
type Locations struct {
	// AgentDir is Pi's agent directory (sessions live in AgentDir/sessions).
	AgentDir string
	// SessionDir is a custom, flat session directory ("" when Pi would use
	// the per-cwd default directory).
	SessionDir string
	// SessionDirSource says which override set SessionDir (SessionDirFrom…).
	SessionDirSource string
}

// SessionsRoot is AgentDir/sessions, the parent of every per-cwd directory.
func (l Locations) SessionsRoot() string { return filepath.Join(l.AgentDir, "sessions") }

// ExpandTilde replaces a leading "~" (alone or followed by a separator) with home.
func ExpandTilde(path, home string) string {
	if path == "~" {
		return home
	}
	if strings.HasPrefix(path, "~/") || strings.HasPrefix(path, `~\`) {
		return filepath.Join(home, path[2:])
	}
	return path
}

// ResolveAgentDir returns $PI_CODING_AGENT_DIR (tilde-expanded) or ~/.pi/agent.
func ResolveAgentDir(getenv func(string) string, home string) string {
	if d := getenv(EnvAgentDir); d != "" {
		return filepath.Clean(ExpandTilde(d, home))
	}
	return filepath.Join(home, ".pi", "agent")
}

// ResolveLocations finds the agent directory and any custom session
// directory for cwd the way Pi 1.6.0 does (spec §1.1): flagDir (the
// --session-dir value, "" if none), then $PI_CODING_AGENT_SESSION_DIR, then
// the sessionDir setting (project .pi/settings.json over the global
// settings.json; relative paths resolve from cwd). Unreadable settings are
// ignored like Pi ignores them; a settings file that exists but is not JSON
// is reported as an error together with the locations found so far.
func ResolveLocations(cwd, flagDir string, getenv func(string) string, home string) (Locations, error) {
	loc := Locations{AgentDir: ResolveAgentDir(getenv, home)}
	cwd = resolveCwd(cwd, home)
	set := func(dir, source string) {
		dir = ExpandTilde(dir, home)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		loc.SessionDir, loc.SessionDirSource = filepath.Clean(dir), source
	}
	switch {
	case flagDir != "":
		set(flagDir, SessionDirFromFlag)
		return loc, nil
	case getenv(EnvSessionDir) != "":
		set(getenv(EnvSessionDir), SessionDirFromEnv)
		return loc, nil
	}
	var firstErr error
	for _, s := range []struct{ path, source string }{
		{filepath.Join(cwd, ".pi", "settings.json"), SessionDirFromProjectSettings},
		{filepath.Join(loc.AgentDir, "settings.json"), SessionDirFromGlobalSettings},
	} {
		dir, present, err := settingsSessionDir(s.path)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if dir != "" {
			set(dir, s.source)
		}
		if present {
			// deepMergeSettings: a key the project file has wins, even
			// when it is "" or null (which means no custom directory).
			break
		}
	}
	return loc, firstErr
}

// settingsSessionDir reads the sessionDir key of a settings file (exact key,
// last duplicate wins, as JSON.parse does): the directory when it is a
// non-empty string, and whether the key is present at all.
func settingsSessionDir(path string) (dir string, present bool, err error) {
	data, err := ReadRegularFile(path, maxSettingsBytes)
	if err != nil {
		return "", false, nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	v, err := jsonv.Parse(data)
	if err != nil {
		return "", false, fmt.Errorf("settings %s: %w", path, err)
	}
	settings, ok := v.(*jsonv.Object)
	if !ok {
		return "", false, nil
	}
	raw, present := settings.Get("sessionDir")
	dir, _ = raw.(string)
	return dir, present, nil
}

// resolveCwd makes cwd absolute and clean like Node's path.resolve, after
// "~" expansion and with file:// URLs accepted (spec §1.2 step 1).
func resolveCwd(cwd, home string) string {
	if strings.HasPrefix(cwd, "file://") {
		// fileURLToPath: the URL path with escapes decoded; only an empty
		// or "localhost" host names a local file.
		if u, err := url.Parse(cwd); err == nil && (u.Host == "" || u.Host == "localhost") {
			cwd = u.Path
		} else {
			cwd = strings.TrimPrefix(cwd, "file://")
		}
	}
	cwd = ExpandTilde(cwd, home)
	if abs, err := filepath.Abs(cwd); err == nil {
		return abs
	}
	return filepath.Clean(cwd)
}

// EncodeCwd turns an absolute cwd into Pi's session directory name (spec
// §1.2; the encoding itself lives in engine/sessiondir so the demo
// workspace can name its session directory without this package).
func EncodeCwd(cwd string) string { return sessiondir.Name(cwd) }

// DefaultSessionDir is AgentDir/sessions/<EncodeCwd(cwd)>.
func (l Locations) DefaultSessionDir(cwd, home string) string {
	return filepath.Join(l.SessionsRoot(), EncodeCwd(resolveCwd(cwd, home)))
}

// ResolveLocationsFor is ResolveLocations with the agent directory already
// chosen (forgebench's --agent-dir): it stands in for $PI_CODING_AGENT_DIR,
// so the global settings that may name a custom session directory are
// read from that agent directory too. An empty agentDir defers to getenv.
func ResolveLocationsFor(cwd, agentDir, flagDir string, getenv func(string) string, home string) (Locations, error) {
	if agentDir != "" {
		env := getenv
		getenv = func(k string) string {
			if k == EnvAgentDir {
				return agentDir
			}
			return env(k)
		}
	}
	return ResolveLocations(cwd, flagDir, getenv, home)
}
