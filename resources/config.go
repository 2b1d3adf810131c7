package resources

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// DefaultWebEditorPort is pi-forge's preferred web editor port (§14.4).
const DefaultWebEditorPort = 41738

// Config is the part of pi-forge's config.json the workbench shows (§14.4).
type Config struct {
	// Path is the project config file (<cwd>/.pi/forge/config.json); it is
	// read only when the project is trusted.
	Path string
	// GlobalPath is the global config file ($PI_FORGE_GLOBAL_CONFIG_PATH or
	// <forgeDir>/config.json). The core runtime reads only subagent settings
	// from it, so it is reported, not interpreted.
	GlobalPath string
	// Port is the configured web editor port (webEditor.port, else the
	// legacy top-level webEditorPort); 0 = none, use DefaultWebEditorPort.
	Port int
	// Locale is webEditor.locale when it is a string ("" = absent).
	Locale string
	// Warnings are pi-forge's exact config warnings, in order.
	Warnings []string
}

// EffectivePort is the port pi-forge would try first.
func (c Config) EffectivePort() int {
	if c.Port != 0 {
		return c.Port
	}
	return DefaultWebEditorPort
}

func loadConfig(ws Workspace, globalPath string) Config {
	if globalPath == "" {
		globalPath = filepath.Join(ws.ForgeDir, "config.json")
	}
	cfg := Config{Path: filepath.Join(ws.Cwd, ".pi", "forge", "config.json"), GlobalPath: globalPath}
	if !ws.Trust.Trusted {
		return cfg
	}
	raw, err := readRegularFile(cfg.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg
	}
	var value any
	if err == nil {
		value, err = jsonv.Parse(raw)
	}
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			msg = nodeReadError(err, "open", cfg.Path)
		}
		cfg.Warnings = append(cfg.Warnings, "pi-forge: failed to read "+cfg.Path+"; using an available editor port. "+msg)
		return cfg
	}
	root, ok := value.(*jsonv.Object)
	if !ok {
		cfg.Warnings = append(cfg.Warnings, "pi-forge: "+cfg.Path+" must be a JSON object; using an available editor port.")
		return cfg
	}
	// JavaScript: webEditor?.port ?? webEditorPort — absent or null falls
	// through; only an absent (undefined) result means "not configured".
	var port any
	present := false
	web, _ := root.Get("webEditor")
	if webObj, ok := web.(*jsonv.Object); ok {
		port, present = webObj.Get("port")
		if loc, ok := webObj.Get("locale"); ok {
			cfg.Locale, _ = loc.(string)
		}
	}
	if port == nil {
		port, present = root.Get("webEditorPort")
	}
	if !present {
		return cfg
	}
	if f, ok := port.(float64); ok && f == math.Trunc(f) && f >= 1 && f <= 65535 {
		cfg.Port = int(f)
		return cfg
	}
	cfg.Warnings = append(cfg.Warnings, "pi-forge: "+cfg.Path+" webEditor.port must be an integer from 1 to 65535; using an available editor port.")
	return cfg
}
