// Package sessiondir is Pi's naming of the directory that holds a
// project's sessions (spec pi-session-formats §1.2, getDefaultSessionDirPath
// in session-manager.ts). It is pure: resolving the cwd to an absolute path
// (`~`, file:// URLs, relative paths) is the caller's work, done by the
// session package; the demo workspace, whose project path is already
// absolute, uses the name directly.
package sessiondir

import "strings"

var separators = strings.NewReplacer("/", "-", `\`, "-", ":", "-")

// Name turns an absolute, resolved cwd into Pi's session directory name:
// one leading "/" or "\" dropped, every "/", "\" and ":" replaced by "-",
// wrapped in "--". The encoding is lossy: a "-" inside a path component
// cannot be told from a separator.
func Name(absCwd string) string {
	if strings.HasPrefix(absCwd, "/") || strings.HasPrefix(absCwd, `\`) {
		absCwd = absCwd[1:]
	}
	return "--" + separators.Replace(absCwd) + "--"
}
