package search

import (
	"bytes"
	"io"
	"strings"

	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/internal/rawjson"
)

// Naming an agent transcript that no tree's state claims (an older tree of
// the same root, a file state.json does not list) by its own descriptor.

// headWindow is how much of an agent transcript is read for its
// descriptor.
const headWindow = 64 << 10

// descriptorPath reads an agent transcript's path from its
// pi-subagent/descriptor entry (§20.2), written right after the header and
// any copied parent history; "?" when it is not in the first window.
func descriptorPath(file string) string {
	f, err := regfile.OpenSection(file, headWindow) // listed: it may be a FIFO by now
	if err != nil {
		return "?"
	}
	defer f.Close()
	head := make([]byte, f.Size())
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
