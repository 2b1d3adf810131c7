package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sessiondir"
)

// A pi-subagent tree for `agents list` (issue 20): a root session of the
// project whose tree-v2 marker selects a tree, and a state.json of n
// agents in the shape pi-subagent v5 writes (one line, §17), three levels
// deep: 100 agents under /root, 10 under each of those, the rest spread
// under the second level. Records carry their role's snapshot (with its
// system prompt, the same for every agent of the role, as pi-subagent
// copies it from the role file), settings, a model, a pending task now and
// then and an outbox once in a while, about 1.5 KB each (100,000 agents
// make a state.json of about 154 MB). The agents of the first two levels (files of them) have a
// session each, holding the registration entries of their children, so
// visibility is decided as for a real tree; the others' session files are
// named but absent (a pruned tree), which `agents list` reports.

// treeIDs are the fixed ids of the generated tree.
const (
	treeRootID = "01a2297e-0000-7000-8000-0000000000a0"
	treeID     = "01a2297e-0000-7000-8000-0000000000b0"
)

// writeTree writes the root session and the tree for cwd under agentDir
// and prints the root session's path and the size of state.json.
func writeTree(agentDir, cwd string, n, files int, seed uint64) error {
	dir := filepath.Join(agentDir, "sessions", sessiondir.Name(cwd))
	tree := filepath.Join(dir, treeRootID+".subagents", treeID)
	if err := os.MkdirAll(filepath.Join(tree, "sessions"), 0o700); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x7ee))
	start := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	paths := treePaths(n)
	// Registration entries, by parent path: their ids are the anchors.
	children := map[string][]string{}
	for _, p := range paths {
		parent := p[:strings.LastIndexByte(p, '/')]
		children[parent] = append(children[parent], p)
	}
	anchors := make(map[string]string, len(paths))
	for i, p := range paths {
		anchors[p] = fmt.Sprintf("r%07x", i)
	}
	anchor := func(p string) string { return anchors[p] }
	sessionFile := func(i int) string {
		return filepath.Join(tree, "sessions", fmt.Sprintf("%s_01a2297e-%04x-7000-8000-%012x.jsonl",
			start.Add(time.Duration(i)*time.Second).Format("2006-01-02T15-04-05-000Z"), i&0xffff, i))
	}
	root := filepath.Join(dir, start.Format("2006-01-02T15-04-05-000Z")+"_"+treeRootID+".jsonl")
	if err := writeTreeSession(root, treeRootID, cwd, start, children["/root"], anchor,
		`{"type":"custom","customType":"pi-subagent/tree-v2","data":{"version":1,"id":"`+treeID+`","rootSessionId":"`+treeRootID+`"},"id":"m0000000","parentId":null,"timestamp":"`+stamp(start)+`"}`); err != nil {
		return err
	}
	for i, p := range paths {
		if i >= files {
			break
		}
		desc := `{"type":"custom","customType":"pi-subagent/descriptor","data":{"version":5,"path":` + jsonv.Quote(p) + `,"anchorId":"` + anchor(p) + `"},"id":"m0000000","parentId":null,"timestamp":"` + stamp(start) + `"}`
		if err := writeTreeSession(sessionFile(i), fmt.Sprintf("01a2297e-%04x-7000-8000-%012x", i&0xffff, i), cwd, start, children[p], anchor, desc); err != nil {
			return err
		}
	}
	state := filepath.Join(tree, "state.json")
	f, err := os.Create(state)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"version":1,"id":"` + treeID + `","rootSessionId":"` + treeRootID + `","rootMailbox":[],"agents":{`)
	for i, p := range paths {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(jsonv.Quote(p) + ":" + treeRecord(rng, p, anchor(p), sessionFile(i), cwd, start.Add(time.Duration(i)*time.Second)))
	}
	w.WriteString("}}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fi, err := os.Stat(state)
	if err != nil {
		return err
	}
	fmt.Printf("%s agents=%d sessions=%d state=%d\n", root, len(paths), min(files, len(paths)), fi.Size())
	return nil
}

// treePaths names n agents, parents before their children: /root/tNN,
// then /root/tNN/wN, then /root/tNN/wN/xNNNN.
func treePaths(n int) []string {
	var paths []string
	for i := 0; i < 100 && len(paths) < n; i++ {
		paths = append(paths, fmt.Sprintf("/root/t%02d", i))
	}
	top := len(paths)
	for i := 0; i < top*10 && len(paths) < n; i++ {
		paths = append(paths, fmt.Sprintf("%s/w%d", paths[i/10], i%10))
	}
	second := paths[top:]
	for i := 0; len(paths) < n; i++ {
		paths = append(paths, fmt.Sprintf("%s/x%04d", second[i%len(second)], i/len(second)))
	}
	return paths
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// writeTreeSession writes a session with first after the header, then a
// registration entry for each child (a chain, all on the active branch)
// and a closing user message.
func writeTreeSession(path, id, cwd string, start time.Time, kids []string, anchor func(string) string, first string) error {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"` + id + `","timestamp":"` + stamp(start) + `","cwd":` + jsonv.Quote(cwd) + "}\n")
	b.WriteString(first + "\n")
	parent := "m0000000"
	for _, k := range kids {
		b.WriteString(`{"type":"custom","customType":"pi-subagent/registration-v2","data":{"treeId":"` + treeID + `","path":` + jsonv.Quote(k) +
			`},"id":"` + anchor(k) + `","parentId":"` + parent + `","timestamp":"` + stamp(start) + "\"}\n")
		parent = anchor(k)
	}
	b.WriteString(`{"type":"message","id":"u0000000","parentId":"` + parent + `","timestamp":"` + stamp(start) + `","message":{"role":"user","content":"Report back.","timestamp":1}}` + "\n")
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

var (
	roleNames   = []string{"reviewer", "scout", "worker", "tester", "planner"}
	promptWords = []string{"review", "the", "change", "and", "report", "each", "finding", "with", "its", "file", "line",
		"never", "edit", "files", "outside", "scope", "run", "tests", "before", "answering", "keep", "answers", "short"}
)

// roleSnapshots are the descriptor.agent objects of the roles: pi-subagent
// snapshots the role file into every agent it creates, so agents of one
// role carry the same snapshot.
var roleSnapshots = func() map[string]string {
	rng := rand.New(rand.NewPCG(7, 7))
	out := map[string]string{}
	for _, role := range roleNames {
		var prompt strings.Builder
		for prompt.Len() < 428 {
			prompt.WriteString(promptWords[rng.IntN(len(promptWords))])
			prompt.WriteByte(' ')
		}
		out[role] = `{"name":"` + role + `","description":"A ` + role + ` that works through one bounded task and reports back.","tools":["read","grep","find","ls","bash"],"systemPrompt":` +
			jsonv.Quote(prompt.String()) + `,"source":"user"}`
	}
	return out
}()

// treeRecord is one agent record of state.json.
func treeRecord(rng *rand.Rand, path, anchor, file, cwd string, created time.Time) string {
	parent := path[:strings.LastIndexByte(path, '/')]
	role := roleNames[rng.IntN(len(roleNames))]
	statuses := []string{"completed", "completed", "completed", "errored", "interrupted", "running"}
	status := statuses[rng.IntN(len(statuses))]
	mail := "[]"
	if rng.IntN(4) == 0 {
		var task strings.Builder
		for task.Len() < 200 {
			task.WriteString(promptWords[rng.IntN(len(promptWords))])
			task.WriteByte(' ')
		}
		mail = `[{"id":"01a2297e-` + fmt.Sprintf("%04x", rng.IntN(0xffff)) + `-7000-8000-000000000001","from":` + jsonv.Quote(parent) + `,"to":` + jsonv.Quote(path) +
			`,"kind":"task","text":` + jsonv.Quote(task.String()) + `,"createdAt":"` + stamp(created) + `"}]`
	}
	rec := `{"descriptor":{"version":5,"id":"01a2297e-` + fmt.Sprintf("%04x", rng.IntN(0xffff)) + `-7000-8000-` + fmt.Sprintf("%012x", rng.Uint64()&0xffffffffffff) +
		`","path":` + jsonv.Quote(path) + `,"parentPath":` + jsonv.Quote(parent) + `,"depth":` + fmt.Sprint(strings.Count(path, "/")-1) +
		`,"cwd":` + jsonv.Quote(cwd) + `,"createdAt":"` + stamp(created) + `","agent":` + roleSnapshots[role] +
		`,"model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"medium","forkTurns":"none"` +
		`,"settings":{"agentScope":"user","maxDepth":3,"maxConcurrentAgents":4,"inheritExtensions":false,"openAIIdentity":false,"maxOutputBytes":51200}` +
		`,"anchorId":"` + anchor + `"},"sessionFile":` + jsonv.Quote(file) + `,"status":"` + status + `","runId":"01a2297e-` + fmt.Sprintf("%04x", rng.IntN(0xffff)) + `-7000-8000-000000000002"`
	if status == "errored" {
		rec += `,"error":"Provider returned 529 overloaded_error after 3 retries."`
	}
	rec += `,"mailbox":` + mail
	if rng.IntN(10) == 0 {
		rec += `,"outbox":[{"id":"completion:run","from":` + jsonv.Quote(path) + `,"to":` + jsonv.Quote(parent) + `,"kind":"completion","text":"Done: 3 files reviewed, 1 issue found.","createdAt":"` + stamp(created) + `","runId":"run"}]`
	}
	if rng.IntN(3) == 0 {
		rec += `,"lifecycle":"closed"`
	}
	return rec + "}"
}
