package preset

import "strings"

// RenamedMCPToolName is the name Pi 0.99.2 and later register for an MCP
// tool written in the old mcp__<server>__<tool> form whose server part has
// a "-" (Pi now writes "_" there). pi-forge 0.5.8 only documents the
// hazard ("Old exact deny/remove names may simply stop matching the
// renamed tool", docs/guides/pi-1-compatibility.md) and has no runtime
// message for it; the warning built on this is forgebench's own wording.
// It returns "" for anything else: a name Pi did not rename, a pattern
// with * or ?, or a name not of that form.
func RenamedMCPToolName(name string) string {
	if strings.ContainsAny(name, "*?") {
		return ""
	}
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return ""
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" || !strings.Contains(server, "-") {
		return ""
	}
	return "mcp__" + strings.ReplaceAll(server, "-", "_") + "__" + tool
}

// MCPRenameWarnings warns about each exact tools.deny name of the stack
// that Pi 0.99.2 renamed (RenamedMCPToolName): the deny would match
// nothing, so the tool it meant to block stays available.
func MCPRenameWarnings(stack *Stack) Diagnostics {
	if stack == nil || stack.Tools == nil {
		return nil
	}
	return MCPRenameWarningsFor(stack.Tools.Deny, "tools.deny")
}

// MCPRenameWarningsFor is MCPRenameWarnings for any list of exact tool
// names (a capability's tools.remove), field naming it in the message.
func MCPRenameWarningsFor(names []string, field string) Diagnostics {
	var out Diagnostics
	for _, n := range names {
		if renamed := RenamedMCPToolName(n); renamed != "" {
			out = append(out, Diagnostic{Level: LevelWarning, Message: `Tool "` + n + `" in ` + field +
				` uses the MCP name form Pi 0.99.2 renamed; Pi now registers it as "` + renamed + `", so this exact name matches no tool.`})
		}
	}
	return out
}
