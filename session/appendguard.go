package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// More append errors. The CLI maps ErrNoLeafID to exit status 3 (like a
// conflict: the file is not in a state an append may continue), and
// ErrForeignProject and ErrPiRunning to 4 (refused).
var (
	// ErrNoLeafID reports a session whose leaf — the entry Pi continues
	// from, the last one in file order — has no usable string id: a new
	// entry could not name it as its parent.
	ErrNoLeafID = errors.New("the session's leaf has no usable id")
	// ErrForeignProject reports a session whose header names another
	// project than the one the caller took trust, Presets and
	// capabilities from (AppendOptions.Project).
	ErrForeignProject = errors.New("the session belongs to another project")
	// ErrPiRunning reports a Pi process running in the session's project
	// (a *PiRunningError says which). AppendOptions.Force overrides it.
	ErrPiRunning = errors.New("pi is running in the session's project")
)

// CheckLeaf reports (ErrNoLeafID, saying why) when the entry Pi would
// continue from has no usable string id: a numeric, empty, null or missing
// id, or a line that is not a JSON object. Pi's leaf is the last entry in
// file order (spec §6); an append chains from it, so its id must be one a
// new entry can name as parentId, or the conversation drops out of the
// context of every later request. A session without entries has no leaf
// and passes (the first entry is a root, as Pi writes it). Reading such a
// session — `session context` — still follows the leaf.
func CheckLeaf(s *Session) error {
	leaf, ok := s.Leaf()
	if !ok || (leaf.HasID && leaf.ID != "") {
		return nil
	}
	return fmt.Errorf("its last entry (line %d) %s, and Pi continues from that entry: a new entry could not name it as its parent, so it would start a new root and the conversation would drop out of the context: %w",
		leaf.Line, leafIDProblem(leaf), ErrNoLeafID)
}

// leafIDProblem describes why an entry's id is not usable.
func leafIDProblem(e *Entry) string {
	if e.NotObject {
		return "is not a JSON object (" + jsonKind(e.Raw) + ")"
	}
	raw := e.Field("id")
	switch {
	case raw == nil:
		return "has no id"
	case e.HasID: // a string, so the empty one
		return "has an empty id"
	}
	kind := jsonKind(raw)
	article := "a "
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		article = "an "
	}
	return "has " + article + kind + " id (" + sanitize.Clip(string(raw), 40) + ")"
}

// jsonKind names the JSON type of a raw value by its first byte.
func jsonKind(raw []byte) string {
	raw = []byte(strings.TrimLeft(string(raw), " \t\r\n"))
	if len(raw) == 0 {
		return "empty"
	}
	switch c := raw[0]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	default:
		return "numeric"
	}
}

// Project is the project directory a session belongs to, resolved as Pi
// resolves it when the session is resumed (`pi --session FILE`): the
// header's cwd (made absolute and clean), else — a header without a cwd —
// fallback, the directory Pi would be started in. Pi then takes project
// trust, settings and resources from that directory.
func (s *Session) Project(fallback string) string {
	cwd := s.Header.Cwd
	if cwd == "" {
		cwd = fallback
	}
	if cwd == "" {
		return ""
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		return abs
	}
	return filepath.Clean(cwd)
}

// SameProject reports whether two directories name the same project: the
// same directory on disk (symbolic links and case-insensitive file
// systems agree), or, when either cannot be stat'ed, equal once absolute
// and clean.
func SameProject(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// PiRunningError names the Pi processes found in a session's project.
type PiRunningError struct {
	// Project is the session's project directory.
	Project string
	// Processes are the Pi processes whose working directory it is.
	Processes []PiProcess
}

// Error says who runs there and what an append would lead to.
func (e *PiRunningError) Error() string {
	var who []string
	for _, p := range e.Processes {
		who = append(who, fmt.Sprintf("pid %d (%s)", p.PID, sanitize.Clip(p.Command, 60)))
	}
	return fmt.Sprintf("Pi is running in %s: %s. Pi holds the session in memory: its next message chains from its in-memory leaf, so the entries forgebench appends now would be left on an abandoned branch",
		e.Project, strings.Join(who, ", "))
}

// Unwrap makes errors.Is(err, ErrPiRunning) hold.
func (e *PiRunningError) Unwrap() error { return ErrPiRunning }
