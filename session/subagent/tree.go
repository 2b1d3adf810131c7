package subagent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
)

// ErrNoTree reports a root session with no agent tree at all.
var ErrNoTree = errors.New("no pi-subagent tree")

// ErrNotRoot reports a session that is itself an agent of a tree.
var ErrNotRoot = errors.New("not a root session")

// treeIDPattern is the shape pi-subagent requires of a tree id (§16).
var treeIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-f0-9-]{36}$`) })

// Tree is one agent tree as read from files. It is immutable once Open
// returns; Summaries fills statistics without changing the structure.
type Tree struct {
	// Layout is LayoutV5 or Layout030.
	Layout string
	// ID is the tree id (the 0.3.0 layout has none).
	ID string
	// RootSessionID and RootFile are the root session.
	RootSessionID string
	RootFile      string
	// Dir is the tree directory and StateFile its state.json (v5).
	Dir       string
	StateFile string
	// State is the parsed control snapshot (nil when unreadable or 0.3.0).
	State *State
	// RootMailbox is /root's pending inbox.
	RootMailbox []Mail
	// Agents holds every agent, hidden ones included, sorted by path.
	Agents []*Agent
	// PendingFiles are leftover state-*.pending recovery files (§17.1).
	PendingFiles []string
	// OtherTrees are tree directories of this root that the active branch
	// does not select (older markers or abandoned branches).
	OtherTrees []string
	// MaxConcurrentAgents is the active-run limit shown next to ActiveRuns.
	MaxConcurrentAgents float64
	// Diagnostics are the findings about the tree and its agents.
	Diagnostics []Diagnostic

	byPath   map[string]*Agent
	opt      Options
	sessions string // Dir/sessions, once made
}

// Agent is one agent of a tree.
type Agent struct {
	Path   string
	Parent string
	// Name is the last path segment (the task name).
	Name       string
	Depth      int
	Descriptor Descriptor
	Status     string
	// Lifecycle is open unless the record says otherwise (§25.1).
	Lifecycle string
	RunID     string
	Error     string
	Mailbox   []Mail
	Outbox    []Mail
	// SessionFile is the path the record names; File is where it was found
	// ("" when missing). Relocated is true when File was found by name
	// under the tree's sessions/ directory.
	SessionFile string
	File        string
	Relocated   bool
	// Visible is false for agents registered on an abandoned branch of
	// their parent (or under a hidden parent); Hidden says why.
	Visible bool
	Hidden  string
	// Children are the direct children, sorted by path.
	Children []*Agent
	// Record holds the README-only fields of the record (nil for 0.3.0).
	Record *Record
	// Label is a 0.3.0 child's task label ("" for v5 agents).
	Label string
	// Telemetry is the session's sidecar (nil when there is none).
	Telemetry *Telemetry
	// SpawnTask is the message of the spawn_agent call in the parent's
	// session, read only for agents whose own session names no task.
	SpawnTask string
	// Summary is the agent's own session read (nil until Summaries, or
	// when the file is missing or unreadable: SummaryErr).
	Summary    *FileSummary
	SummaryErr error
	// noted is set once the tree's diagnostics say what reading the
	// session revealed.
	noted bool
	// spawnTasks are the messages of the agent's spawn_agent calls, by
	// task name, when its session was read as a parent's.
	spawnTasks map[string]string
}

// Selected is the model and thinking level the agent runs with: the
// record's README-style selection when present, else the descriptor's.
func (a *Agent) Selected() Selection {
	s := Selection{Model: a.Descriptor.Model, Thinking: a.Descriptor.ThinkingLevel}
	if a.Record != nil && a.Record.Selected != nil {
		if a.Record.Selected.Model.ID != "" {
			s.Model = a.Record.Selected.Model
		}
		if a.Record.Selected.Thinking != "" {
			s.Thinking = a.Record.Selected.Thinking
		}
	}
	return s
}

// Active reports whether the agent holds one of the tree's run slots.
func (a *Agent) Active() bool {
	return a.Status == StatusRunning || a.Status == StatusPendingInit
}

// Options tune Open.
type Options struct {
	// Catalog prices usage without a stored cost and gives context windows.
	Catalog *catalog.Catalog
	// Cache keeps file summaries between loads (nil: no caching).
	Cache *Cache
	// Workers bounds parallel file reads (default GOMAXPROCS).
	Workers int
	// MaxConcurrentAgents is the effective subagent.json limit (0: take it
	// from the newest descriptor's settings, else pi-subagent's default 4).
	MaxConcurrentAgents float64
}

// Agent returns the agent at path.
func (t *Tree) Agent(path string) (*Agent, bool) {
	a, ok := t.byPath[path]
	return a, ok
}

// Roots are the agents whose parent is /root (or, for agents whose parent
// record is missing, the agent itself), sorted by path.
func (t *Tree) Roots() []*Agent {
	var out []*Agent
	for _, a := range t.Agents {
		if _, ok := t.byPath[a.Parent]; !ok {
			out = append(out, a)
		}
	}
	return out
}

// ActiveRuns counts agents holding a run slot across the whole tree.
func (t *Tree) ActiveRuns() int {
	n := 0
	for _, a := range t.Agents {
		if a.Active() {
			n++
		}
	}
	return n
}

// Open loads the tree that the root session at rootFile selects: the last
// pi-subagent/tree-v2 marker on its active branch whose rootSessionId is
// the session's own id (§16). When there is none it falls back to a
// pi-subagent 0.3.0 layout. ErrNotRoot means rootFile is an agent session;
// ErrNoTree that the session has no tree. Statistics are not read: call
// Summaries.
func Open(rootFile string, opt Options) (*Tree, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	root, err := stats.ReadDigest(rootFile, stats.DigestOptions{})
	if err != nil {
		return nil, err
	}
	t := &Tree{Layout: LayoutV5, RootSessionID: root.Header.ID, RootFile: rootFile, opt: opt}
	if err := checkRoot(root); err != nil {
		return nil, err
	}
	branch := root.PathTo(root.LeafIndex())
	rootBranch := make(map[string]bool, len(branch))
	var marker, copied treeMarker
	found, sawCopy := false, false
	for _, i := range branch {
		e := &root.Entries[i]
		if e.HasID {
			rootBranch[e.ID] = true
		}
		if e.Type != session.TypeCustom || e.CustomType != TreeCustomType {
			continue
		}
		m, err := readMarker(root, i)
		if err != nil {
			t.diag(SevWarning, "", rootFile, "tree marker on line %d: %v", e.Line, err)
			continue
		}
		if m.rootSessionID != t.RootSessionID {
			t.diag(SevInfo, "", rootFile, "line %d holds a copied tree marker of session %s (tree %s); a forked session starts its own tree", e.Line, m.rootSessionID, m.id)
			copied, sawCopy = m, true
			continue
		}
		marker, found = m, true
	}
	sessionDir := filepath.Dir(rootFile)
	treesDir := filepath.Join(sessionDir, t.RootSessionID+".subagents")
	others := listTreeDirs(treesDir)
	if !found {
		if lt, err := openLegacy(t, root, opt); err == nil {
			return lt, nil
		}
		if len(others) == 0 && sawCopy {
			return nil, fmt.Errorf("%w: %s was forked from root session %s%s: the pi-subagent/tree-v2 marker on its active branch belongs to that root (tree %s), and this session has started no tree of its own (no %s directory); open the original root for its agents",
				ErrNoTree, rootFile, copied.rootSessionID, originalRootFile(root, sessionDir, copied.rootSessionID), copied.id, filepath.Base(treesDir))
		}
		if len(others) == 0 {
			return nil, fmt.Errorf("%w: %s has no pi-subagent/tree-v2 marker on its active branch and no %s directory", ErrNoTree, rootFile, filepath.Base(treesDir))
		}
		t.OtherTrees = others
		t.diag(SevWarning, "", rootFile, "no pi-subagent/tree-v2 marker on the active branch selects a tree; %d tree director%s exist%s under %s (pi-subagent would start a new tree)",
			len(others), plural(len(others), "y", "ies"), plural(len(others), "s", ""), treesDir)
		return t, nil
	}
	t.ID = marker.id
	if !treeIDPattern().MatchString(t.ID) {
		t.diag(SevError, "", rootFile, "invalid subagent tree identity %q", t.ID)
	}
	t.Dir = filepath.Join(treesDir, t.ID)
	t.StateFile = filepath.Join(t.Dir, "state.json")
	for _, o := range others {
		if o != t.Dir {
			t.OtherTrees = append(t.OtherTrees, o)
		}
	}
	t.PendingFiles, _ = filepath.Glob(filepath.Join(t.Dir, "state-*.pending"))
	for _, p := range t.PendingFiles {
		t.diag(SevInfo, "", p, "leftover recovery file of a failed state.json write; pi-subagent never applies or deletes it")
	}
	t.loadState()
	t.resolveFiles()
	t.link()
	t.setVisibility(rootBranch)
	t.setMaxConcurrent()
	return t, nil
}

// originalRootFile names the file of the root a session was forked from,
// as " (<file>)": the header's parentSession when it is that root's file
// (Pi names it <timestamp>_<id>.jsonl), else such a file next to the
// session; "" when none is found.
func originalRootFile(d *stats.Digest, dir, rootID string) string {
	suffix := "_" + rootID + ".jsonl"
	if p := d.Header.ParentSession; p != "" && strings.HasSuffix(p, suffix) {
		return " (" + p + ")"
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*"+suffix)); len(m) == 1 {
		return " (" + m[0] + ")"
	}
	return ""
}

// treeMarker is the data of a pi-subagent/tree-v2 entry.
type treeMarker struct {
	version       float64
	id            string
	rootSessionID string
}

func readMarker(d *stats.Digest, i int) (treeMarker, error) {
	data, err := customData(d, i)
	if err != nil {
		return treeMarker{}, err
	}
	var m treeMarker
	m.version, _ = getNum(data, "version")
	m.id, _ = getStr(data, "id")
	m.rootSessionID, _ = getStr(data, "rootSessionId")
	if m.id == "" {
		return m, errors.New("the marker has no tree id")
	}
	return m, nil
}

// customData reads back a custom entry and returns its data object.
func customData(d *stats.Digest, i int) (*jsonv.Object, error) {
	e, err := d.ReadEntry(i)
	if err != nil {
		return nil, err
	}
	v, _, err := e.Field("data").Decode()
	if err != nil {
		return nil, fmt.Errorf("decode data: %w", err)
	}
	o, ok := v.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("data is %s, not an object", typeName(v))
	}
	return o, nil
}

// checkRoot refuses an agent session given as a root: it carries a
// descriptor on its branch (§16), or it sits in a tree's sessions/ dir.
func checkRoot(d *stats.Digest) error {
	for _, i := range d.PathTo(d.LeafIndex()) {
		if e := &d.Entries[i]; e.Type == session.TypeCustom && e.CustomType == DescriptorCustomType {
			hint := ""
			if root := rootOfTreeSession(d.Path); root != "" {
				hint = "; its tree belongs to root session " + root
			}
			return fmt.Errorf("%w: %s is a pi-subagent agent session (it has a pi-subagent/descriptor entry)%s", ErrNotRoot, d.Path, hint)
		}
	}
	return nil
}

// rootOfTreeSession returns the root session id of a file inside
// <sessionDir>/<rootId>.subagents/<treeId>/sessions/ ("" otherwise).
func rootOfTreeSession(file string) string {
	sessions := filepath.Dir(file)
	tree := filepath.Dir(sessions)
	trees := filepath.Dir(tree)
	if filepath.Base(sessions) != "sessions" || !strings.HasSuffix(trees, ".subagents") {
		return ""
	}
	return strings.TrimSuffix(filepath.Base(trees), ".subagents")
}

// listTreeDirs lists the tree directories under <rootId>.subagents.
func listTreeDirs(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

func (t *Tree) diag(sev, agent, file, format string, args ...any) {
	t.Diagnostics = append(t.Diagnostics, Diagnostic{Severity: sev, Agent: agent, File: file, Message: fmt.Sprintf(format, args...)})
}

// maxStateBytes bounds the state.json read.
const maxStateBytes = 512 << 20

// loadState reads state.json; when it is missing or unreadable the agents
// are recovered from the descriptors of the session files in sessions/.
func (t *Tree) loadState() {
	f, err := regfile.OpenSection(t.StateFile, 0)
	if err == nil && f.Size() > maxStateBytes {
		f.Close()
		err = &regfile.TooLargeError{Path: t.StateFile, Size: f.Size(), Limit: maxStateBytes}
	}
	if err != nil {
		t.diag(SevError, "", t.StateFile, "%s — %v", msgCorruptStore, err)
	} else {
		st, diags := ReadState(f, t.StateFile, t.ID, t.RootSessionID)
		f.Close()
		t.Diagnostics = append(t.Diagnostics, diags...)
		t.State = st
	}
	if t.State == nil {
		t.recoverFromSessions()
		return
	}
	t.RootMailbox = t.State.RootMailbox
	for k := range t.State.Records {
		r := &t.State.Records[k]
		a := &Agent{
			Path: r.Path, Parent: parentOf(r.Path), Name: filepath.Base(r.Path), Depth: depthOf(r.Path),
			Descriptor: r.Descriptor, Status: r.Status, Lifecycle: r.Lifecycle, RunID: r.RunID, Error: r.Error,
			Mailbox: r.Mailbox, Outbox: r.Outbox, SessionFile: r.SessionFile, Record: r,
		}
		t.Agents = append(t.Agents, a)
	}
}

// readLimited reads a file refusing anything larger than limit, or what
// is not a regular file (a FIFO, a device), through the one opener.
func readLimited(path string, limit int64) ([]byte, error) {
	return regfile.Read(path, limit)
}

// recoverFromSessions rebuilds agents from the descriptor entries of the
// tree's session files, with status unknown.
func (t *Tree) recoverFromSessions() {
	files, _ := filepath.Glob(filepath.Join(t.Dir, "sessions", "*.jsonl"))
	sort.Strings(files)
	seen := map[string]string{} // agent path → the file it was recovered from
	for _, f := range files {
		d, err := stats.ReadDigest(f, stats.DigestOptions{})
		if err != nil {
			t.diag(SevWarning, "", f, "unreadable agent session: %v", err)
			continue
		}
		desc, ok := sessionDescriptor(d)
		if !ok || desc.Path == "" {
			t.diag(SevWarning, "", f, "no pi-subagent/descriptor entry; not attributed to an agent")
			continue
		}
		if why := checkAgentPath(desc.Path); why != "" {
			t.diag(SevWarning, "", f, "the descriptor's path %q is not a canonical agent path (%s); not attributed to an agent", desc.Path, why)
			continue
		}
		if seen[desc.Path] != "" {
			t.diag(SevWarning, "", f, "the descriptor names %s, already recovered from %s; not attributed to an agent", desc.Path, seen[desc.Path])
			continue
		}
		seen[desc.Path] = f
		t.Agents = append(t.Agents, &Agent{
			Path: desc.Path, Parent: parentOf(desc.Path), Name: filepath.Base(desc.Path), Depth: depthOf(desc.Path),
			Descriptor: desc, Status: StatusUnknown, Lifecycle: LifecycleOpen, SessionFile: f,
		})
	}
	if len(t.Agents) > 0 {
		t.diag(SevWarning, "", t.StateFile, "%d agent%s recovered from the descriptors in sessions/ (status unknown)", len(t.Agents), plural(len(t.Agents), "", "s"))
	}
	sort.Slice(t.Agents, func(i, j int) bool { return t.Agents[i].Path < t.Agents[j].Path })
}

// sessionDescriptor reads the first descriptor entry of an agent session.
func sessionDescriptor(d *stats.Digest) (Descriptor, bool) {
	for i := range d.Entries {
		if e := &d.Entries[i]; e.Type == session.TypeCustom && e.CustomType == DescriptorCustomType {
			data, err := customData(d, i)
			if err != nil {
				return Descriptor{}, false
			}
			desc, _ := parseDescriptor(data, "")
			return desc, true
		}
	}
	return Descriptor{}, false
}

// link builds the index, children lists and depths.
func (t *Tree) link() {
	t.byPath = make(map[string]*Agent, len(t.Agents))
	for _, a := range t.Agents {
		t.byPath[a.Path] = a
	}
	for _, a := range t.Agents {
		if p, ok := t.byPath[a.Parent]; ok {
			p.Children = append(p.Children, a)
		} else if a.Parent != RootPath {
			t.diag(SevWarning, a.Path, "", "parent %s has no record in the tree", a.Parent)
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
