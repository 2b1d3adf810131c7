package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"

	"github.com/forgebench/forgebench/config"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/themes"
)

// Globals are the flags every command accepts.
type Globals struct {
	Cwd      string    `help:"Project directory (default: the current directory)." type:"path" placeholder:"DIR"`
	AgentDir string    `help:"Pi agent directory (default: $PI_CODING_AGENT_DIR or ~/.pi/agent)." type:"path" placeholder:"DIR"`
	ForgeDir string    `help:"pi-forge global directory (default: $PI_FORGE_GLOBAL_DIR or ~/.pi/forge)." type:"path" placeholder:"DIR"`
	Theme    themeFlag `help:"Colour theme: auto, dark or light (NO_COLOR is honoured); overrides the settings file, default auto." placeholder:"auto|dark|light" predictor:"theme"`
	Lang     langFlag  `help:"Language of the workbench and of human output: en or zh-CN; overrides the settings file's \"language\", then LC_ALL/LC_MESSAGES/LANG." placeholder:"en|zh-CN" predictor:"lang"`
	Demo     bool      `help:"Unpack the embedded demo workspace into a new temporary directory and use it (its path is printed on exit)."`
	Trust    bool      `help:"Treat the project as trusted for this run (like Pi's --approve); forgebench never writes trust.json." xor:"trust"`
	NoTrust  bool      `name:"no-trust" help:"Treat the project as untrusted for this run: project resources are not loaded and nothing in the project is written." xor:"trust"`

	stdout, stderr io.Writer
	demoRoot       string
	// svc is the run's shared services (services), built by the first
	// command that asks, for the workspace svcDirs named; a command that
	// binds the run to a session's project (bindSessionProject) changes
	// the directories and so gets the services of that project.
	svc             *services.Services
	svcDirs         resources.Dirs
	catalogReported bool // models.json diagnostics were printed
	libraryReported bool // the library's notices and directory faults were printed
}

// services are the run's shared services: the workspace, its library,
// the model catalog, the session locations, the reference resolver and
// the save preflight, built once (again only when the run's directories
// change).
func (g *Globals) services() (*services.Services, error) {
	if _, err := g.workspace(); err != nil {
		return nil, err
	}
	return g.svc, nil
}

// workspace resolves the workspace for this run, unpacking the demo first
// when --demo is set (the demo's directories replace the defaults); it is
// opened once, with the services that hold it.
func (g *Globals) workspace() (resources.Workspace, error) {
	dirs := resources.Dirs{Cwd: g.Cwd, AgentDir: g.AgentDir, ForgeDir: g.ForgeDir}
	if g.Demo && g.demoRoot == "" {
		layout, err := demo.Unpack("")
		if err != nil {
			return resources.Workspace{}, i18n.Errorf("unpack the demo workspace: %w", err)
		}
		g.demoRoot = layout.Root
		if dirs.Cwd == "" {
			dirs.Cwd = layout.ProjectDir
		}
		if dirs.AgentDir == "" {
			dirs.AgentDir = layout.AgentDir
		}
		if dirs.ForgeDir == "" {
			dirs.ForgeDir = layout.ForgeDir
		}
		g.Cwd, g.AgentDir, g.ForgeDir = dirs.Cwd, dirs.AgentDir, dirs.ForgeDir
	}
	override := resources.TrustFromPi
	switch {
	case g.Trust:
		override = resources.TrustForce
	case g.NoTrust:
		override = resources.TrustDeny
	}
	if g.svc != nil && g.svcDirs == dirs {
		return g.svc.Workspace(), nil
	}
	ws, err := resources.OpenWorkspace(dirs, override, resources.OSEnv())
	if err != nil {
		return resources.Workspace{}, i18n.Errorf("open workspace: %w", err)
	}
	g.svc, g.svcDirs = services.New(ws), dirs
	return ws, nil
}

// modelCatalog is Pi's model catalog for this workspace: the embedded
// pi-ai 1.6.0 models with <agent-dir>/models.json applied, shared with the
// rest of the process (catalog.Shared). Problems in models.json are
// reported on stderr, once per run, and the file is then ignored, as Pi
// does.
func (g *Globals) modelCatalog() (*catalog.Catalog, error) {
	if _, err := g.workspace(); err != nil {
		return nil, err
	}
	cat, diags := g.svc.Catalog()
	if !g.catalogReported {
		for _, d := range diags {
			fmt.Fprintln(g.stderr, sanitize.Line(d.Line()))
		}
		g.catalogReported = true
	}
	return cat, nil
}

// themeFlag is --theme: "" when not given, else a theme that
// config.ParseTheme accepts. It is checked as kong decodes it, so a bad
// value is a usage error that lists the themes (a kong enum would list
// "" among them, the value that stands for "not given").
type themeFlag string

// Decode reads and checks the flag's value.
func (t *themeFlag) Decode(ctx *kong.DecodeContext) error {
	var name string
	if err := ctx.Scan.PopValueInto("theme", &name); err != nil {
		return err
	}
	if _, err := config.ParseTheme(name); err != nil {
		return err
	}
	*t = themeFlag(name)
	return nil
}

// langFlag is --lang: "" when not given, else a language config.ParseLanguage
// accepts; checked as kong decodes it, so a bad value is a usage error.
type langFlag string

// Decode reads and checks the flag's value.
func (l *langFlag) Decode(ctx *kong.DecodeContext) error {
	var name string
	if err := ctx.Scan.PopValueInto("lang", &name); err != nil {
		return err
	}
	if _, err := config.ParseLanguage(name); err != nil {
		return err // kong names the flag
	}
	*l = langFlag(name)
	return nil
}

// language is the run's language: --lang, else the settings file's
// "language" (read alone here; the TUI checks the whole file), else the
// locale (i18n.Resolve).
func (g *Globals) language(getenv func(string) string) i18n.Lang {
	if g.Lang != "" {
		return i18n.Resolve(string(g.Lang), "", getenv)
	}
	home, _ := os.UserHomeDir()
	return i18n.Resolve("", string(config.LoadLanguage(config.Path(getenv, home))), getenv)
}

// themeMode is --theme's mode (Auto when not given).
func (g *Globals) themeMode() themes.Mode {
	m, err := config.ParseTheme(string(g.Theme))
	if err != nil {
		return themes.Auto
	}
	return m
}

// cleanup tells the user where the demo workspace is; it is kept so edits
// made in the demo can be inspected after exit.
func (g *Globals) cleanup() {
	if g.demoRoot != "" {
		fmt.Fprintln(g.stderr, "forgebench:", i18n.T("demo workspace kept at %s", g.demoRoot))
	}
}
