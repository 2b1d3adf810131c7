package ui

import (
	"path/filepath"
	"strings"
)

// abbreviateHome shows paths under the home directory as ~/….
func abbreviateHome(p, home string) string {
	if home == "" || home == "/" {
		return p
	}
	if p == home {
		return "~"
	}
	if strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}

func baseName(p string) string { return filepath.Base(p) }
