package cli

import (
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"

	"github.com/forgebench/forgebench/config"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/internal/privcache"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/session/subagent"
)

// Live completion values: the Presets, capabilities and profiles of the
// workspace, the project's sessions with their titles, the agents of a
// tree and the entries of a session. They are read the cheap way — the
// library's files, the sessions' header and two small windows (never a
// whole session), an entry digest (ids, kinds and times, no bodies) — for
// the workspace the line names (--cwd, --agent-dir, --forge-dir,
// --trust/--no-trust; nothing with --demo, which would unpack a workspace
// at every key press).

// completionBudget bounds the time live values may take: a tree of 100,000
// agents or a session on a slow disk must not hang the shell. Past it the
// shell gets no values (and then file names, as with any unknown word).
var completionBudget = time.Second

// completionListOptions read a session's title and activity from 16 KiB
// at each end (discovery reads 64 KiB, and `session list` names a session
// from there): the header and the first user message are there in
// practice, and a name set lately; a name set longer ago gives way to the
// first message. Reading 2,000 sessions costs about half of the wider
// windows (measured with bench/run.sh; below 16 KiB opening the files
// costs more than reading them), which keeps completion within issue 23's
// budget of 100 ms. The newest session the completion of --leaf and agent
// paths defaults to is picked the same way; the commands pick theirs from
// the wider windows, which differ only for a session whose last message
// is larger than 16 KiB. The windows matter on a cold listing cache only
// (projectSessions): a warm one reads no session file.
func completionListOptions(home string) session.ListOptions {
	return session.ListOptions{HeadBytes: 16 << 10, TailBytes: 16 << 10, Home: home}
}

// candidate is one value offered, with what the shell shows beside it.
type candidate struct{ value, desc string }

// completionValues computes the live values for one request.
type completionValues struct {
	parser *kong.Kong
	cli    *CLI
	// words are the words before the one being completed, the program's
	// name left out.
	words []string

	once       sync.Once
	g          *Globals // nil: no live values (--demo)
	sessionArg string   // the session the line names, "" for none
}

// newCompletionValues prepares the live values for line (the command line
// up to the cursor), split into words as posener/complete splits it.
func newCompletionValues(parser *kong.Kong, cli *CLI, line string) *completionValues {
	words := strings.Fields(line)
	if line != "" && !unicode.IsSpace(rune(line[len(line)-1])) && len(words) > 0 {
		words = words[:len(words)-1] // the word being completed
	}
	if len(words) > 0 {
		words = words[1:]
	}
	return &completionValues{parser: parser, cli: cli, words: words}
}

// predictors are the live values by the names fields give in their
// `predictor:"…"` tags.
func (v *completionValues) predictors() map[string]complete.Predictor {
	return map[string]complete.Predictor{
		"theme":      complete.PredictSet(config.ThemeNames()...),
		"lang":       complete.PredictSet(config.LanguageNames()...),
		"preset":     v.live(v.presets),
		"capability": v.live(v.capabilities),
		"profile":    v.live(v.profiles),
		"session":    v.live(v.sessions),
		"entry":      v.live(v.entries),
		"agent":      v.live(v.agents),
	}
}

// context traces the words through the kong tree once (kong.Trace, which
// stops where the words stop making sense) and keeps the global flags and
// the session the line names.
func (v *completionValues) context() (*Globals, string) {
	v.once.Do(func() {
		ctx, err := kong.Trace(v.parser, v.words)
		if err != nil {
			return
		}
		_, _ = ctx.Apply() // into v.cli; Run runs nothing after a completion
		for _, p := range ctx.Path {
			var value *kong.Value
			switch {
			case p.Flag != nil:
				value = p.Flag.Value
			case p.Positional != nil:
				value = p.Positional
			}
			if value != nil && value.Tag.Get("predictor") == "session" && value.Target.Kind() == reflect.String {
				v.sessionArg = value.Target.String()
			}
		}
		if v.cli.Demo {
			return
		}
		v.g = &Globals{
			Cwd: v.cli.Cwd, AgentDir: v.cli.AgentDir, ForgeDir: v.cli.ForgeDir,
			Trust: v.cli.Trust, NoTrust: v.cli.NoTrust,
			stdout: io.Discard, stderr: io.Discard,
		}
	})
	return v.g, v.sessionArg
}

// live wraps a source of values as a predictor: it runs with the line's
// workspace, within completionBudget, and a fault (a file truncated under
// a mapping) or a panic gives no values rather than a trace in the shell.
func (v *completionValues) live(source func(g *Globals, sessionArg, word string) []candidate) complete.Predictor {
	return complete.PredictFunc(func(a complete.Args) []string {
		g, sessionArg := v.context()
		if g == nil {
			return nil
		}
		done := make(chan []candidate, 1)
		go func() {
			var found []candidate
			defer func() {
				_ = recover()
				done <- found
			}()
			_ = session.GuardFaults(func() error {
				found = source(g, sessionArg, a.Last)
				return nil
			})
		}()
		var found []candidate
		select {
		case found = <-done:
		case <-time.After(completionBudget):
			return nil
		}
		if len(found) == 0 {
			return nil
		}
		out := make([]string, 0, len(found))
		for _, c := range found {
			out = append(out, c.value+"\t"+c.desc)
		}
		return out
	})
}

// presets offers Preset selectors.
func (v *completionValues) presets(g *Globals, _, word string) []candidate {
	lib, err := g.loadLibrary()
	if err != nil {
		return nil
	}
	var out []candidate
	for _, p := range lib.Presets {
		out = append(out, candidate{p.ID, p.Name()})
	}
	return selectors(out, lib.Presets, word)
}

// capabilities offers capability selectors.
func (v *completionValues) capabilities(g *Globals, _, word string) []candidate {
	lib, err := g.loadLibrary()
	if err != nil {
		return nil
	}
	var out []candidate
	for _, c := range lib.Capabilities {
		out = append(out, candidate{c.ID, optional(c.Capability.Name)})
	}
	return selectors(out, lib.Capabilities, word)
}

// profiles offers agent profile selectors.
func (v *completionValues) profiles(g *Globals, _, word string) []candidate {
	lib, err := g.loadLibrary()
	if err != nil {
		return nil
	}
	var out []candidate
	for _, p := range lib.Profiles {
		out = append(out, candidate{p.ID, optional(p.Profile.Name)})
	}
	return selectors(out, lib.Profiles, word)
}

func optional(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// scoped is what selectors needs of a library resource.
type scoped interface {
	*resources.Preset | *resources.Capability | *resources.Profile
}

// selectors turns resources (named by ids, described by names) into
// selectors: the bare id of each (once: a bare id resolves in the project
// first), and when the word being completed has a colon, the scoped form
// scope:id of each.
func selectors[T scoped](named []candidate, all []T, word string) []candidate {
	var out []candidate
	seen := map[string]bool{}
	for i, r := range all {
		res := resourceOf(r)
		desc := named[i].desc
		if desc == "" || desc == res.ID {
			desc = string(res.Scope)
		} else {
			desc += " · " + string(res.Scope)
		}
		if strings.Contains(word, ":") {
			out = append(out, candidate{res.Key(), desc})
		} else if !seen[res.ID] {
			seen[res.ID] = true
			out = append(out, candidate{res.ID, desc})
		}
	}
	return out
}

func resourceOf[T scoped](r T) *resources.Resource {
	switch r := any(r).(type) {
	case *resources.Preset:
		return &r.Resource
	case *resources.Capability:
		return &r.Resource
	case *resources.Profile:
		return &r.Resource
	}
	return nil
}

// sessions offers the project's session ids that start with the word
// being completed, newest first, described by their titles (session.Title:
// the name, else the first message) and times.
func (v *completionValues) sessions(g *Globals, _, word string) []candidate {
	items, err := projectSessions(g)
	if err != nil {
		return nil
	}
	out := make([]candidate, 0, len(items))
	for i := range items {
		it := &items[i]
		if it.ID == "" || it.Problem != "" || !strings.HasPrefix(it.ID, word) {
			continue
		}
		desc := when(it.LastActivity)
		if title := it.Title(); title != it.ID {
			desc = title + " · " + desc
		}
		out = append(out, candidate{it.ID, desc})
	}
	return out
}

// projectSessions lists the sessions of the line's project, newest first,
// with completionListOptions, through the listing cache: only the files
// that changed since the last answer are read. The reading stops short of
// completionBudget, keeping what it read for the next answer, so that a
// project too large to read at once is read over a few key presses
// instead of never.
func projectSessions(g *Globals) ([]session.ListItem, error) {
	ws, err := g.workspace()
	if err != nil {
		return nil, err
	}
	loc, home, err := g.sessionLocations("")
	if err != nil {
		return nil, err
	}
	dir := privcache.Dir()
	if dir == "" {
		return session.ListCwd(loc, ws.Cwd, completionListOptions(home))
	}
	return session.ListCwdCached(loc, ws.Cwd, completionListOptions(home), dir, time.Now().Add(completionBudget*3/4))
}

// sessionFile is the session the line names (resolved as every command
// resolves one; an id or prefix unique among the project's listed
// sessions is taken from the listing, which the cache makes cheap), else
// the project's newest session (with an agent tree when tree is set).
func sessionFile(g *Globals, sessionArg string, tree bool) string {
	if sessionArg != "" {
		if file := listedSession(g, sessionArg); file != "" {
			return file
		}
		ws, err := g.workspace()
		if err != nil {
			return ""
		}
		loc, home, err := g.sessionLocations("")
		if err != nil {
			return ""
		}
		file, err := session.ResolveSession(loc, ws.Cwd, home, sessionArg)
		if err != nil {
			return ""
		}
		return file
	}
	items, err := projectSessions(g)
	if err != nil {
		return ""
	}
	for _, it := range items {
		if it.Problem == "" && (!tree || it.HasAgentTree) {
			return it.Path
		}
	}
	return ""
}

// listedSession resolves an id or prefix among the project's listed
// sessions by session.ResolveSession's rule for the project's scope (an
// exact id wins, a prefix must be unique; case-insensitive); "" when the
// argument may be a file, or the listing does not settle it (several
// files with the id, a match in a custom session directory, whose cwd
// rule the resolver applies its own way) — the resolver then decides.
func listedSession(g *Globals, arg string) string {
	if strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".jsonl") {
		return ""
	}
	if _, err := os.Stat(arg); err == nil {
		return ""
	}
	items, err := projectSessions(g)
	if err != nil {
		return ""
	}
	want := strings.ToLower(arg)
	var exact, prefixed []string
	for _, it := range items {
		id := strings.ToLower(it.ID)
		switch {
		case it.ID == "":
		case it.Source != session.SourceDefault && strings.HasPrefix(id, want):
			return ""
		case id == want:
			exact = append(exact, it.Path)
		case strings.HasPrefix(id, want):
			prefixed = append(prefixed, it.Path)
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0]
	case len(exact) > 1:
		return ""
	case len(prefixed) == 1:
		return prefixed[0]
	}
	return ""
}

// entries offers the entry ids of the session the line names (or the
// newest), newest first, described by kind and time, the leaf marked; from
// stats.ReadDigest, which keeps no bodies.
func (v *completionValues) entries(g *Globals, sessionArg, _ string) []candidate {
	file := sessionFile(g, sessionArg, false)
	if file == "" {
		return nil
	}
	d, err := stats.ReadDigest(file, stats.DigestOptions{})
	if err != nil {
		return nil
	}
	out := make([]candidate, 0, len(d.Entries))
	for i := len(d.Entries) - 1; i >= 0; i-- {
		e := &d.Entries[i]
		if !e.HasID {
			continue
		}
		kind := e.Type
		switch {
		case e.Role != "":
			kind = e.Role
		case e.CustomType != "":
			kind += " " + e.CustomType
		}
		if e.TimestampMs == e.TimestampMs { // not NaN
			kind += " · " + when(time.UnixMilli(int64(e.TimestampMs)))
		}
		if i == d.LeafIndex() {
			kind += i18n.T(" · leaf")
		}
		out = append(out, candidate{e.ID, kind})
	}
	return out
}

// agents offers the agent paths of the tree of the session the line names
// (or of the project's newest session with a tree), described by role and
// status. subagent.Open reads the tree's state, not the agents' sessions.
func (v *completionValues) agents(g *Globals, sessionArg, _ string) []candidate {
	root := sessionFile(g, sessionArg, true)
	if root == "" {
		return nil
	}
	t, err := subagent.Open(root, subagent.Options{})
	if err != nil {
		return nil
	}
	out := make([]candidate, 0, len(t.Agents))
	for _, a := range t.Agents {
		desc := a.Status
		if role := a.Descriptor.Role.Name; role != "" {
			desc = role + " · " + desc
		}
		out = append(out, candidate{a.Path, desc})
	}
	return out
}

// when is a time as the completion lists show it.
func when(t time.Time) string { return t.Local().Format("2006-01-02 15:04") }
