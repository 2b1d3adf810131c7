package subagent

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// problem is one finding of a lenient parser, before it is attached to a
// file and an agent.
type problem struct {
	severity string
	message  string
}

// taskNamePattern is a v5 path segment (spawn_agent.task_name, §21.1).
var taskNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9_]{1,64}$`) })

// maxPathLength bounds a logical agent path.
const maxPathLength = 4096

// checkAgentPath reports why p is not a canonical v5 agent path below
// /root ("" when it is one): "/root" plus "/"-separated task names, no
// "..", ".", empty segments, hyphens or upper case (§21.3).
func checkAgentPath(p string) string {
	switch {
	case p == RootPath:
		return "/root itself cannot be an agent record"
	case len(p) > maxPathLength:
		return fmt.Sprintf("longer than %d characters", maxPathLength)
	case !strings.HasPrefix(p, RootPath+"/"):
		return "not rooted at /root"
	}
	for _, seg := range strings.Split(p[len(RootPath)+1:], "/") {
		switch {
		case seg == "":
			return "has an empty segment"
		case seg == "root":
			return `uses the reserved name "root"`
		case !taskNamePattern().MatchString(seg):
			return fmt.Sprintf("segment %q is not a task name (1-64 lowercase letters, digits or underscores)", seg)
		}
	}
	return ""
}

// parentOf is the path minus its last segment ("/root" for a depth-1 agent).
func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return ""
}

// depthOf is the number of segments below /root.
func depthOf(p string) int {
	if !strings.HasPrefix(p, RootPath) {
		return 0
	}
	return strings.Count(p[len(RootPath):], "/")
}

// thinkingLevels are the levels pi-subagent accepts (§23).
var thinkingLevels = map[string]bool{"off": true, "minimal": true, "low": true, "medium": true, "high": true, "xhigh": true, "max": true}

// parseDescriptor reads a v5 descriptor leniently: every field of the
// right type is taken, everything else becomes a problem. key is the agent
// path the descriptor is stored under ("" when read from a session).
func parseDescriptor(v any, key string) (Descriptor, []problem) {
	var d Descriptor
	var probs []problem
	bad := func(format string, args ...any) {
		probs = append(probs, problem{SevError, fmt.Sprintf(format, args...)})
	}
	o, ok := v.(object)
	if !ok {
		bad("descriptor is %s, not an object", typeName(v))
		return d, probs
	}
	d.Version, _ = getNum(o, "version")
	switch {
	case d.Version == DescriptorVersion:
	case d.Version > DescriptorVersion:
		probs = append(probs, problem{SevWarning, fmt.Sprintf("descriptor version %v is newer than %d; showing the fields forgebench knows", d.Version, DescriptorVersion)})
	default:
		bad("descriptor version is %s, want %d (descriptors of v4 and earlier are neither migrated nor resumed)", jsonv.Stringify(valueOr(o, "version")), DescriptorVersion)
	}
	d.ID, _ = getStr(o, "id")
	d.Path, _ = getStr(o, "path")
	d.ParentPath, _ = getStr(o, "parentPath")
	d.Depth, _ = getNum(o, "depth")
	d.Cwd, _ = getStr(o, "cwd")
	d.CreatedAt, _ = getStr(o, "createdAt")
	d.ThinkingLevel, _ = getStr(o, "thinkingLevel")
	d.ForkTurns, _ = getStr(o, "forkTurns")
	d.AnchorID, _ = getStr(o, "anchorId")
	if m, ok := getObj(o, "model"); ok {
		d.Model.Provider, _ = getStr(m, "provider")
		d.Model.ID, _ = getStr(m, "id")
	}
	if a, ok := getObj(o, "agent"); ok {
		d.Role = parseRoleSnapshot(a)
	}
	if s, ok := getObj(o, "settings"); ok {
		d.Settings = parseSettingsSnapshot(s)
	}
	if key != "" {
		if d.Path != key {
			bad("descriptor.path is %q, not the record key", d.Path)
		}
		if want := parentOf(key); d.ParentPath != want {
			bad("descriptor.parentPath is %q, want %q (the path minus its last segment)", d.ParentPath, want)
		}
	}
	if anchor, _ := o.Get("anchorId"); !truthy(anchor) {
		bad("descriptor.anchorId is missing")
	}
	if p := d.Path; p != "" && checkAgentPath(p) == "" && d.Depth != float64(depthOf(p)) {
		probs = append(probs, problem{SevWarning, fmt.Sprintf("descriptor.depth is %v but the path is at depth %d", d.Depth, depthOf(p))})
	}
	if d.ThinkingLevel != "" && !thinkingLevels[d.ThinkingLevel] {
		probs = append(probs, problem{SevWarning, fmt.Sprintf("unknown thinking level %q", d.ThinkingLevel)})
	}
	return d, probs
}

func valueOr(o object, key string) any {
	v, ok := o.Get(key)
	if !ok {
		return "missing"
	}
	return v
}

func parseRoleSnapshot(a object) Role {
	var r Role
	r.Name, _ = getStr(a, "name")
	r.Description, _ = getStr(a, "description")
	r.Model, _ = getStr(a, "model")
	r.Thinking, _ = getStr(a, "thinking")
	r.SystemPrompt, _ = getStr(a, "systemPrompt")
	r.Source, _ = getStr(a, "source")
	if tools, ok := getArr(a, "tools"); ok {
		r.HasTools = true
		r.Tools = make([]string, 0, len(tools))
		for _, t := range tools {
			if s, ok := t.(string); ok {
				r.Tools = append(r.Tools, s)
			}
		}
	}
	return r
}

func parseSettingsSnapshot(s object) Settings {
	var st Settings
	st.AgentScope, _ = getStr(s, "agentScope")
	st.MaxDepth, _ = getNum(s, "maxDepth")
	st.MaxConcurrentAgents, _ = getNum(s, "maxConcurrentAgents")
	st.InheritExtensions, _ = getBool(s, "inheritExtensions")
	st.OpenAIIdentity, _ = getBool(s, "openAIIdentity")
	st.MaxOutputBytes, _ = getNum(s, "maxOutputBytes")
	return st
}
