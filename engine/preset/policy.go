package preset

// HasResourcePolicy reports whether p restricts anything: an allow list with a
// pattern other than "*", or a non-empty deny list (§5.1).
func HasResourcePolicy(p *ResourcePolicy) bool {
	return p != nil && (hasEffectiveAllow(p.Allow) || len(p.Deny) > 0)
}

// HasSelectiveAllow reports whether p has a selective allow list (non-empty
// and without "*"), which chooses tools from the full registered catalog
// (§5.2, §9.10).
func HasSelectiveAllow(p *ResourcePolicy) bool {
	return p != nil && len(p.Allow) > 0 && !containsString(p.Allow, "*")
}

// HasToolSelectionPolicy reports whether a tool policy selects tools: an
// allow/deny policy is present or tools.initial is given (§9.10, inferred).
func HasToolSelectionPolicy(p *ResourcePolicy) bool {
	return HasResourcePolicy(p) || (p != nil && p.Initial != nil)
}

func hasEffectiveAllow(allow []string) bool {
	for _, pattern := range allow {
		if pattern != "*" {
			return true
		}
	}
	return false
}

// ApplyResourcePolicy filters names by p (applyResourcePolicy, §5.1): no
// policy → names unchanged; an effective allow keeps matching names;
// otherwise a deny list drops matching names. The result is a new slice
// (or names itself when there is no policy).
func ApplyResourcePolicy(names []string, p *ResourcePolicy) []string {
	if !HasResourcePolicy(p) {
		return names
	}
	keepMatching := hasEffectiveAllow(p.Allow)
	patterns := p.Deny
	if keepMatching {
		patterns = p.Allow
	}
	out := make([]string, 0, len(names))
	for _, name := range names {
		if MatchesAnyPattern(name, patterns) == keepMatching {
			out = append(out, name)
		}
	}
	return out
}

// FilterTools is ApplyResourcePolicy for tool names (selectedToolNames, §3.2).
func FilterTools(p *ResourcePolicy, names []string) []string {
	return ApplyResourcePolicy(names, p)
}

// IsAllowed reports whether one name survives the policy.
func IsAllowed(p *ResourcePolicy, name string) bool {
	return len(ApplyResourcePolicy([]string{name}, p)) == 1
}

// MatchesAnyPattern reports whether name matches one of the patterns.
func MatchesAnyPattern(name string, patterns []string) bool {
	for _, pattern := range patterns {
		if PatternMatches(name, pattern) {
			return true
		}
	}
	return false
}

// PatternMatches matches one policy pattern (resourcePatternMatches, §5.1):
// "*" matches everything; a pattern without "*" is an exact name; otherwise
// each "*" matches any run of characters except JavaScript line terminators
// (the pattern is the anchored regex ^…$ with "*" → ".*").
func PatternMatches(name, pattern string) bool {
	if pattern == "*" {
		return true
	}
	return globMatch([]rune(name), []rune(pattern))
}

// globMatch is an iterative wildcard match where '*' cannot cross a line
// terminator (JavaScript "." semantics).
func globMatch(name, pattern []rune) bool {
	n, p := 0, 0
	starP, starN := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			starP, starN = p, n
			p++
		case p < len(pattern) && pattern[p] == name[n]:
			p++
			n++
		case starP >= 0 && !isLineTerminator(name[starN]):
			starN++
			n = starN
			p = starP + 1
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}
