package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// ErrNoSuchSession reports a session argument that names no file and
// matches no session id.
var ErrNoSuchSession = errors.New("no such session")

// ErrAmbiguousSession reports an id prefix shared by several sessions.
var ErrAmbiguousSession = errors.New("ambiguous session id prefix")

// ResolveSession turns a command-line session argument into a file path:
// an existing file is taken as is; otherwise the argument is a session id
// or a prefix of one (case-insensitive), looked up in the headers of the
// project's sessions (ListCwd's directories) and then of every project
// (ListAll's). An exact id wins over prefixes; a prefix must be unique
// within the first scope that has a match. Tree directories of pi-subagent
// are not searched (agent sessions are addressed by agent path).
func ResolveSession(loc Locations, cwd, home, arg string) (string, error) {
	if arg == "" {
		return "", fmt.Errorf("%w: empty argument", ErrNoSuchSession)
	}
	fi, statErr := os.Stat(arg)
	if statErr == nil && !fi.IsDir() {
		return arg, nil
	}
	if strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".jsonl") {
		switch {
		case statErr == nil: // a directory: the opener refuses it as one
			return arg, nil
		case !errors.Is(statErr, fs.ErrNotExist): // a symbolic-link loop, no permission …
			return "", fmt.Errorf("%w: %v", ErrNoSuchSession, statErr)
		}
		return "", fmt.Errorf("%w: %s: file not found", ErrNoSuchSession, arg)
	}
	scopes := [][]candidate{}
	cwdCands, err := dirCandidates(loc.DefaultSessionDir(cwd, home), SourceDefault, "")
	if err != nil {
		return "", err
	}
	if loc.SessionDir != "" {
		more, err := dirCandidates(loc.SessionDir, SourceCustom, resolveCwd(cwd, home))
		if err != nil {
			return "", err
		}
		cwdCands = append(cwdCands, more...)
	}
	scopes = append(scopes, dedupe(cwdCands))
	allCands, err := allCandidates(loc)
	if err != nil {
		return "", err
	}
	scopes = append(scopes, allCands)
	want := strings.ToLower(arg)
	for _, cands := range scopes {
		exact, prefixed := matchIDs(cands, want)
		if len(exact) > 0 {
			return exact[0], nil
		}
		switch len(prefixed) {
		case 0:
			continue
		case 1:
			return prefixed[0], nil
		default:
			sort.Strings(prefixed)
			shown := prefixed[:min(len(prefixed), 5)]
			return "", fmt.Errorf("%w %q: %d sessions match (%s)", ErrAmbiguousSession, arg, len(prefixed), strings.Join(shown, ", "))
		}
	}
	return "", fmt.Errorf("%w: %q is neither a file nor a session id (or prefix) under %s", ErrNoSuchSession, arg, loc.SessionsRoot())
}

// matchIDs reads each candidate's header and returns the paths whose id
// equals want and those whose id starts with it. Custom-directory
// candidates keep their cwd filter.
func matchIDs(cands []candidate, want string) (exact, prefixed []string) {
	for _, c := range cands {
		h, err := OpenHeader(c.path)
		if err != nil {
			continue
		}
		if c.wantCwd != "" && h.Cwd != c.wantCwd {
			continue
		}
		id := strings.ToLower(h.ID)
		switch {
		case id == want:
			exact = append(exact, c.path)
		case strings.HasPrefix(id, want):
			prefixed = append(prefixed, c.path)
		}
	}
	return exact, prefixed
}
