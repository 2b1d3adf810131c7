package search

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// Reading just enough of a pi-subagent tree to name each agent transcript
// by its agent path. TODO(h7): replace with session/subagent once on main.

// maxStateBytes bounds how much of a state.json is read.
const maxStateBytes = 64 << 20

// headWindow is how much of an agent transcript is read for its
// descriptor when state.json does not name it.
const headWindow = 64 << 10

// statePaths maps the base name of each agent's sessionFile in a tree's
// state.json (§17.2) to the agent's path. The recorded sessionFile is an
// absolute path that may have moved with the directory, so only its base
// name is compared. A missing or unreadable file gives an empty map.
func statePaths(stateFile string) map[string]string {
	f, err := os.Open(stateFile)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateBytes))
	if err != nil {
		return nil
	}
	var state struct {
		Agents map[string]struct {
			SessionFile string `json:"sessionFile"`
		} `json:"agents"`
	}
	if json.Unmarshal(data, &state) != nil {
		return nil
	}
	out := make(map[string]string, len(state.Agents))
	for path, rec := range state.Agents {
		if rec.SessionFile != "" && strings.HasPrefix(path, "/root/") {
			out[filepath.Base(rec.SessionFile)] = path
		}
	}
	return out
}

// descriptorPath reads an agent transcript's path from its
// pi-subagent/descriptor entry (§20.2), written right after the header and
// any copied parent history; "?" when it is not in the first window.
func descriptorPath(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return "?"
	}
	defer f.Close()
	head := make([]byte, headWindow)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	for len(head) > 0 {
		nl := bytes.IndexByte(head, '\n')
		if nl < 0 {
			break
		}
		line := head[:nl]
		head = head[nl+1:]
		e, err := session.ParseEntryLine(line, 0)
		if err != nil || e.Type != session.TypeCustom {
			continue
		}
		if ct, _ := e.Field("customType").Str(); ct != "pi-subagent/descriptor" {
			continue
		}
		if p, ok := rawjson.String(rawjson.Member(e.Field("data"), "path")); ok && strings.HasPrefix(p, "/root/") {
			return p
		}
	}
	return "?"
}
