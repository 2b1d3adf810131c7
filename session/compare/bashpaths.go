package compare

import "strings"

// BashPaths returns the files a bash command plainly writes or removes, in
// the order written: the targets of > and >> redirections, the operands of
// touch, rm, mkdir, tee, truncate, the destination of mv and cp, and the
// files of sed -i. A command is split at ;, &&, ||, | and newlines; a word
// counts only when it is plain (letters, digits and . _ - / + @ , : = ~
// only, not an option): anything quoted, expanded, globbed or substituted
// is left out rather than guessed.
func BashPaths(command string) []string {
	var out []string
	for _, simple := range splitSimple(command) {
		out = append(out, simplePaths(strings.Fields(simple))...)
	}
	return out
}

// splitSimple cuts a command line at the operators that start another
// simple command.
func splitSimple(cmd string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(cmd); i++ {
		switch cmd[i] {
		case ';', '|', '\n':
			parts = append(parts, cmd[start:i])
			start = i + 1
		case '&':
			if i > 0 && cmd[i-1] == '>' || i+1 < len(cmd) && cmd[i+1] == '>' {
				continue // >&2, &>file: a redirection, not a separator
			}
			parts = append(parts, cmd[start:i])
			if i+1 < len(cmd) && cmd[i+1] == '&' {
				i++
			}
			start = i + 1
		}
	}
	return append(parts, cmd[start:])
}

// simplePaths reads one simple command's words.
func simplePaths(words []string) []string {
	var out []string
	var operands []string
	name := ""
	sedInPlace := false
	for k := 0; k < len(words); k++ {
		w := words[k]
		if target, ok := redirectTarget(w); ok {
			if target == "" && k+1 < len(words) {
				k++
				target = words[k]
			}
			if plainPath(target) {
				out = append(out, target)
			}
			continue
		}
		if strings.ContainsAny(w, "<>") { // 2>&1, <file: reads, or not plain
			continue
		}
		if name == "" {
			if strings.Contains(w, "=") && !strings.HasPrefix(w, "=") {
				continue // VAR=value prefix
			}
			name = w
			if k := strings.LastIndexByte(name, '/'); k >= 0 {
				name = name[k+1:]
			}
			continue
		}
		if strings.HasPrefix(w, "-") {
			if name == "sed" && (w == "-i" || strings.HasPrefix(w, "-i") || w == "--in-place" || strings.HasPrefix(w, "--in-place=")) {
				sedInPlace = true
			}
			continue
		}
		operands = append(operands, w)
	}
	var touched []string
	switch name {
	case "touch", "rm", "mkdir", "tee", "truncate", "rmdir", "unlink":
		touched = operands
	case "mv", "cp", "ln", "install":
		if len(operands) >= 2 {
			touched = operands[len(operands)-1:]
			if name == "mv" {
				touched = operands // the sources are gone too
			}
		}
	case "sed":
		if sedInPlace && len(operands) >= 2 {
			touched = operands[1:] // the script comes first
		}
	}
	for _, w := range touched {
		if plainPath(w) {
			out = append(out, w)
		}
	}
	return out
}

// redirectTarget reports an output redirection word: ">", ">>", "1>",
// "&>" (target in the next word, "" returned) or ">file" (target
// returned). Duplications such as 2>&1 are not targets.
func redirectTarget(w string) (string, bool) {
	i := 0
	for i < len(w) && (w[i] >= '0' && w[i] <= '9' || w[i] == '&') {
		i++
	}
	if i >= len(w) || w[i] != '>' {
		return "", false
	}
	i++
	if i < len(w) && (w[i] == '>' || w[i] == '|') {
		i++
	}
	rest := w[i:]
	if strings.HasPrefix(rest, "&") {
		return "", false // >&2, >&-
	}
	if rest == "" {
		return "", true
	}
	return rest, true
}

// plainPath reports a word that names a file as written: no quoting,
// expansion, globbing or options, and not a device.
func plainPath(w string) bool {
	if w == "" || w[0] == '-' || strings.HasPrefix(w, "/dev/") {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("._-/+@,:=~", c) >= 0:
		case c >= 0x80: // non-ASCII letters in file names
		default:
			return false
		}
	}
	return w != "." && w != ".."
}
