package subagent

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/stats"
)

// pi-subagent 0.3.0 kept no tree directory: each child is an ordinary
// session next to its parent's (header parentSession), with a descriptor v2
// and a pi-subagent/lineage entry; its end is announced to the parent by a
// pi-subagent/settled message (§19.1). forgebench lists such trees; there is
// no control snapshot, so mailboxes are empty and a status comes from the
// parent's settled notices.

// legacyDescriptorVersion is the descriptor version of pi-subagent 0.3.0.
const legacyDescriptorVersion = 2

// legacyChild is one 0.3.0 child session found next to the root.
type legacyChild struct {
	file       string
	sessionID  string
	agentID    string
	parentPiID string
	desc       Descriptor
	label      string
}

// openLegacy looks for 0.3.0 children of the root session in its directory.
func openLegacy(t *Tree, root *stats.Digest, opt Options) (*Tree, error) {
	dir := filepath.Dir(root.Path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	bySession := map[string]*legacyChild{}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		if e.IsDir() || !strings.HasSuffix(name, ".jsonl") || path == root.Path {
			continue
		}
		h, err := session.OpenHeader(path)
		if err != nil || h.ParentSession == "" {
			continue
		}
		d, err := stats.ReadDigest(path, stats.DigestOptions{})
		if err != nil {
			continue
		}
		if c, ok := legacyChildOf(d); ok {
			bySession[c.sessionID] = c
		}
	}
	// Keep the children whose parent chain reaches the root.
	var kids []*legacyChild
	for _, c := range bySession {
		cur, seen := c, map[string]bool{}
		for cur != nil && !seen[cur.sessionID] {
			seen[cur.sessionID] = true
			if cur.parentPiID == root.Header.ID {
				kids = append(kids, c)
				break
			}
			cur = bySession[cur.parentPiID]
		}
	}
	if len(kids) == 0 {
		return nil, errors.New("no pi-subagent 0.3.0 children")
	}
	sort.Slice(kids, func(i, j int) bool {
		return kids[i].desc.CreatedAt < kids[j].desc.CreatedAt || kids[i].desc.CreatedAt == kids[j].desc.CreatedAt && kids[i].agentID < kids[j].agentID
	})
	t.Layout = Layout030
	paths := map[string]string{root.Header.ID: RootPath}
	var pathOf func(c *legacyChild) string
	pathOf = func(c *legacyChild) string {
		if p, ok := paths[c.sessionID]; ok {
			return p
		}
		paths[c.sessionID] = "" // cycle guard
		parent := RootPath
		if pc, ok := bySession[c.parentPiID]; ok {
			parent = pathOf(pc)
		}
		p := parent + "/" + legacySegment(c)
		paths[c.sessionID] = p
		return p
	}
	statusOf := settledStatuses(root)
	for _, c := range kids {
		p := pathOf(c)
		c.desc.Path, c.desc.ParentPath, c.desc.Depth = p, parentOf(p), float64(depthOf(p))
		a := &Agent{
			Path: p, Parent: parentOf(p), Name: filepath.Base(p), Depth: depthOf(p), Descriptor: c.desc,
			Status: StatusUnknown, Lifecycle: LifecycleOpen, SessionFile: c.file, File: c.file, Visible: true,
			Label: c.label,
		}
		if st, ok := statusOf[c.agentID]; ok {
			a.Status = st
		}
		t.Agents = append(t.Agents, a)
	}
	// Settled notices of deeper agents live in their parents' sessions.
	for _, c := range kids {
		if pc, ok := bySession[c.parentPiID]; ok {
			if d, err := stats.ReadDigest(pc.file, stats.DigestOptions{}); err == nil {
				if st, ok := settledStatuses(d)[c.agentID]; ok {
					if a := findAgent(t.Agents, paths[c.sessionID]); a != nil {
						a.Status = st
					}
				}
			}
		}
	}
	sort.Slice(t.Agents, func(i, j int) bool { return t.Agents[i].Path < t.Agents[j].Path })
	t.link()
	t.setMaxConcurrent()
	t.diag(SevInfo, "", root.Path, "a pi-subagent 0.3.0 tree (child sessions next to the root, no state.json): paths are built from role names and agent ids, statuses from settled notices; mailboxes are not recorded")
	return t, nil
}

func findAgent(agents []*Agent, path string) *Agent {
	for _, a := range agents {
		if a.Path == path {
			return a
		}
	}
	return nil
}

var segmentJunk = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9_]+`) })

// legacySegment names a 0.3.0 child in a path: its role name and the last
// six hex digits of its agent id (0.3.0 agents have no task names).
func legacySegment(c *legacyChild) string {
	name := strings.Trim(segmentJunk().ReplaceAllString(strings.ToLower(c.desc.Role.Name), "_"), "_")
	if name == "" {
		name = "agent"
	}
	id := strings.ReplaceAll(c.agentID, "-", "")
	if len(id) > 6 {
		id = id[len(id)-6:]
	}
	return name + "_" + id
}

// legacyChildOf reads a 0.3.0 child's descriptor (the last descriptor entry
// wins, as foldDescriptor does).
func legacyChildOf(d *stats.Digest) (*legacyChild, bool) {
	last := -1
	for i := range d.Entries {
		if e := &d.Entries[i]; e.Type == session.TypeCustom && e.CustomType == DescriptorCustomType {
			last = i
		}
	}
	if last < 0 {
		return nil, false
	}
	data, err := customData(d, last)
	if err != nil {
		return nil, false
	}
	if v, _ := getNum(data, "version"); v != legacyDescriptorVersion {
		return nil, false
	}
	c := &legacyChild{file: d.Path, sessionID: d.Header.ID}
	c.agentID, _ = getStr(data, "agentId")
	c.parentPiID, _ = getStr(data, "parentPiSessionId")
	c.label, _ = getStr(data, "label")
	c.desc.Version = legacyDescriptorVersion
	c.desc.ID = c.agentID
	c.desc.Cwd, _ = getStr(data, "cwd")
	c.desc.CreatedAt, _ = getStr(data, "createdAt")
	c.desc.ThinkingLevel, _ = getStr(data, "thinkingLevel")
	if p, _ := getStr(data, "provider"); p == "fork" {
		c.desc.ForkTurns = "all"
	} else {
		c.desc.ForkTurns = "none"
	}
	if m, ok := getObj(data, "model"); ok {
		c.desc.Model.Provider, _ = getStr(m, "provider")
		c.desc.Model.ID, _ = getStr(m, "id")
	}
	if a, ok := getObj(data, "agent"); ok {
		c.desc.Role = parseRoleSnapshot(a)
	}
	if rt, ok := getObj(data, "runtime"); ok {
		c.desc.Settings = parseSettingsSnapshot(rt)
	}
	return c, c.agentID != "" && c.parentPiID != ""
}

// settledStatuses maps child agent ids to the status their last
// pi-subagent/settled notice in d reports.
func settledStatuses(d *stats.Digest) map[string]string {
	out := map[string]string{}
	for i := range d.Entries {
		e := &d.Entries[i]
		if e.CustomType != SettledCustomType || (e.Type != session.TypeCustomMessage && e.Role != session.RoleCustom) {
			continue
		}
		entry, err := d.ReadEntry(i)
		if err != nil {
			continue
		}
		details := entry.Field("details")
		if e.Type == session.TypeMessage {
			details = entry.MessageField("details")
		}
		v, _, err := details.Decode()
		if err != nil {
			continue
		}
		o, ok := v.(*jsonv.Object)
		if !ok {
			continue
		}
		id, _ := getStr(o, "childAgentId")
		reason, _ := getStr(o, "stopReason")
		out[id] = legacyStatus(reason)
	}
	return out
}

// legacyStatus maps a 0.3.0 stop reason to a v5 execution status.
func legacyStatus(stopReason string) string {
	switch stopReason {
	case "completed":
		return StatusCompleted
	case "aborted":
		return StatusInterrupted
	case "error", "max-tokens":
		return StatusErrored
	}
	return StatusUnknown
}
