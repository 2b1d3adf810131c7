package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
		return "", fmt.Errorf("%w: %s: no such file", ErrNoSuchSession, arg)
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
			return "", newAmbiguous(arg, prefixed)
		}
	}
	return "", fmt.Errorf("%w: %q is neither a file nor a session id (or prefix) under %s", ErrNoSuchSession, arg, loc.SessionsRoot())
}

// AmbiguousMax is how many candidates an ambiguity error lists.
const AmbiguousMax = 10

// AmbiguousSessionError is an id prefix that several sessions share. Its
// message lists the candidates newest first, one per line, as a user
// knows them: id, time of last activity and title.
type AmbiguousSessionError struct {
	Arg     string
	Total   int        // how many sessions match
	Matches []ListItem // the newest AmbiguousMax of them
}

func newAmbiguous(arg string, paths []string) *AmbiguousSessionError {
	items := make([]ListItem, len(paths))
	for i, p := range paths {
		items[i] = SummarizeFile(p, ListOptions{})
	}
	SortByActivity(items)
	return &AmbiguousSessionError{Arg: arg, Total: len(items), Matches: items[:min(len(items), AmbiguousMax)]}
}

// Error implements error: a summary line, then one line per candidate.
func (e *AmbiguousSessionError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %q: %d sessions match; name one by a longer prefix:", ErrAmbiguousSession, e.Arg, e.Total)
	for _, m := range e.Matches {
		fmt.Fprintf(&b, "\n  %s  %s  %s", m.ID, m.LastActivity.Local().Format("2006-01-02 15:04"), m.Title())
	}
	if more := e.Total - len(e.Matches); more > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", more)
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrAmbiguousSession) hold.
func (e *AmbiguousSessionError) Unwrap() error { return ErrAmbiguousSession }

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
