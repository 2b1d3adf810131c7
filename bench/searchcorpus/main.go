// Command searchcorpus writes a deterministic corpus of Pi sessions for the
// search budgets of issue 16 (bench/search.sh): by default 1 GiB in 2,000
// sessions of one project plus a pi-subagent tree of 100 MiB, with a
// phrase planted in a known number of entries (some on abandoned branches,
// some in agent transcripts, some next to escapes). The same flags always
// give the same bytes.
//
//	go run ./bench/searchcorpus -out DIR [-total BYTES] [-sessions N] [-tree BYTES] [-hits N]
//
// It prints the project directory to pass as --cwd and --agent-dir.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/sessiondir"
)

// Phrase is the planted text; bench/search.sh searches for it.
const Phrase = "quetzal overflow"

func main() {
	out := flag.String("out", "", "directory to write into (created; must be empty or absent)")
	total := flag.Int64("total", 1<<30, "total bytes of session files")
	sessions := flag.Int("sessions", 2000, "number of ordinary sessions")
	tree := flag.Int64("tree", 100<<20, "bytes of the pi-subagent tree (root and agents)")
	hits := flag.Int("hits", 50, "entries holding the planted phrase")
	seed := flag.Uint64("seed", 16, "random seed")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "searchcorpus: -out is required")
		os.Exit(2)
	}
	g := newGen(*seed)
	if err := g.write(*out, *total, *sessions, *tree, *hits); err != nil {
		fmt.Fprintln(os.Stderr, "searchcorpus:", err)
		os.Exit(1)
	}
}

type gen struct {
	rnd   *rand.Rand
	words []string
	clock time.Time
	ids   int
}

func newGen(seed uint64) *gen {
	g := &gen{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), clock: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
	syll := []string{"ka", "to", "re", "mi", "sa", "lo", "ne", "vi", "da", "pu", "en", "ar", "is", "ot", "um", "el", "ha", "ri", "co", "be", "ti", "we", "fa", "go", "ju", "pe", "xo", "ya"}
	for len(g.words) < 3000 {
		n := 1 + g.rnd.IntN(4)
		var b strings.Builder
		for range n {
			b.WriteString(syll[g.rnd.IntN(len(syll))])
		}
		g.words = append(g.words, b.String())
	}
	g.words = append(g.words, "the", "and", "of", "to", "in", "is", "for", "function", "return", "error", "file", "test", "café", "naïve", "—", "→", "✓")
	return g
}

// text returns about n bytes of prose and code with the escapes real
// sessions hold: newlines, quotes, backslashes, tabs, non-ASCII, ANSI.
func (g *gen) text(n int) string {
	var b strings.Builder
	b.Grow(n + 64)
	for b.Len() < n {
		switch g.rnd.IntN(40) {
		case 0:
			b.WriteString("\n\n")
		case 1:
			b.WriteString("\n    if err != nil {\n\t\treturn fmt.Errorf(\"read %s: %w\", path, err)\n\t}\n")
		case 2:
			b.WriteString(" C:\\Users\\dev\\src ")
		case 3:
			b.WriteString(" \x1b[32mok\x1b[0m ")
		case 4:
			b.WriteString(" 🚀 ")
		default:
			b.WriteString(g.words[g.rnd.IntN(len(g.words))])
			if g.rnd.IntN(12) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

func (g *gen) id() string {
	g.ids++
	return fmt.Sprintf("%08x", uint32(g.ids)*2654435761)
}

func (g *gen) uuid() string {
	return fmt.Sprintf("019%05x-%04x-7%03x-8%03x-%012x", g.rnd.Uint32()&0xfffff, g.rnd.Uint32()&0xffff, g.rnd.Uint32()&0xfff, g.rnd.Uint32()&0xfff, g.rnd.Uint64()&0xffffffffffff)
}

func (g *gen) tick() time.Time {
	g.clock = g.clock.Add(time.Duration(1+g.rnd.IntN(40)) * time.Second)
	return g.clock
}

func q(s string) string {
	b, _ := json.Marshal(s)
	// encoding/json escapes <, > and & as \u003c…; JSON.stringify does not.
	r := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\u2028`, "\u2028", `\u2029`, "\u2029")
	return r.Replace(string(b))
}

func stamp(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z") }

// sessionWriter writes one session file entry by entry.
type sessionWriter struct {
	g      *gen
	f      *os.File
	w      *bufio.Writer
	n      int64
	leaf   string
	path   string
	err    error
	plants int // planted phrases still to place in this file
	budget int64
}

func (g *gen) create(path, id, cwd, parentSession string, budget int64) (*sessionWriter, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	sw := &sessionWriter{g: g, f: f, w: bufio.NewWriterSize(f, 1<<20), path: path, budget: budget}
	hdr := `{"type":"session","version":3,"id":"` + id + `","timestamp":"` + stamp(g.tick()) + `","cwd":` + q(cwd)
	if parentSession != "" {
		hdr += `,"parentSession":` + q(parentSession)
	}
	sw.line(hdr + "}")
	return sw, nil
}

func (sw *sessionWriter) line(s string) {
	if sw.err != nil {
		return
	}
	_, sw.err = sw.w.WriteString(s + "\n")
	sw.n += int64(len(s) + 1)
}

// entry appends an entry with the common fields around body and returns its id.
func (sw *sessionWriter) entry(typ, parent, body string) string {
	id := sw.g.id()
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	sw.line(`{"type":"` + typ + `","id":"` + id + `","parentId":` + p + `,"timestamp":"` + stamp(sw.g.tick()) + `",` + body + `}`)
	sw.leaf = id
	return id
}

func (sw *sessionWriter) message(parent, msg string) string {
	return sw.entry("message", parent, `"message":`+msg)
}

// maybePlant puts the phrase into text when this file still owes some.
func (sw *sessionWriter) maybePlant(text string, chance int) string {
	if sw.plants == 0 || sw.g.rnd.IntN(chance) != 0 {
		return text
	}
	sw.plants--
	forms := []string{" " + Phrase + " ", "\"" + Phrase + "\"", "\n" + Phrase + "\n", " (" + Phrase + ") "}
	at := sw.g.rnd.IntN(len(text) + 1)
	for at > 0 && at < len(text) && text[at]&0xC0 == 0x80 {
		at-- // not inside a UTF-8 sequence
	}
	return text[:at] + forms[sw.g.rnd.IntN(len(forms))] + text[at:]
}

// turn writes a user message, an assistant reply with a tool call and the
// tool's result; big makes the tool output large.
func (sw *sessionWriter) turn(parent string, outBytes int) string {
	g := sw.g
	ms := g.clock.UnixMilli()
	u := sw.message(parent, `{"role":"user","content":[{"type":"text","text":`+q(sw.maybePlant(g.text(80+g.rnd.IntN(400)), 6))+`}],"timestamp":`+fmt.Sprint(ms)+`}`)
	call := "toolu_" + g.id()
	cmd := sw.maybePlant("rg -n "+g.words[g.rnd.IntN(len(g.words))]+" src/", 20)
	a := sw.message(u, `{"role":"assistant","content":[{"type":"thinking","thinking":`+q(sw.maybePlant(g.text(200+g.rnd.IntN(800)), 8))+
		`,"thinkingSignature":"`+strings.Repeat("Eu8B", 20)+`"},{"type":"text","text":`+q(sw.maybePlant(g.text(100+g.rnd.IntN(600)), 6))+
		`},{"type":"toolCall","id":"`+call+`","name":"bash","arguments":{"command":`+q(cmd)+`,"timeout":120}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1200,"output":340,"cacheRead":40000,"cacheWrite":0,"totalTokens":41540,"cost":{"input":0.0036,"output":0.0051,"cacheRead":0.012,"cacheWrite":0,"total":0.0207}},"stopReason":"toolUse","timestamp":`+fmt.Sprint(ms)+`}`)
	return sw.message(a, `{"role":"toolResult","toolCallId":"`+call+`","toolName":"bash","content":[{"type":"text","text":`+q(sw.maybePlant(g.text(outBytes), 4))+`}],"isError":false,"timestamp":`+fmt.Sprint(ms)+`}`)
}

// fill writes turns until the file reaches its budget; now and then the
// user goes back to an earlier entry, leaving an abandoned branch.
func (sw *sessionWriter) fill(parent string, bigOutput int) {
	g := sw.g
	var history []string
	for sw.n < sw.budget && sw.err == nil {
		out := 200 + g.rnd.IntN(3000)
		switch r := g.rnd.IntN(100); {
		case r < 8:
			out = 20_000 + g.rnd.IntN(60_000)
		case r == 8 && bigOutput > 0:
			out = bigOutput
		}
		out = int(min(int64(out), max(sw.budget-sw.n, 200)))
		parent = sw.turn(parent, out)
		history = append(history, parent)
		if len(history) > 6 && g.rnd.IntN(15) == 0 {
			parent = history[g.rnd.IntN(len(history)-3)] // branch from an earlier entry
		}
		if g.rnd.IntN(40) == 0 {
			parent = sw.entry("custom", parent, `"customType":"pi-forge/runtime","data":{"preset":"default","n":`+fmt.Sprint(g.rnd.IntN(9))+`}`)
		}
	}
	if sw.plants > 0 {
		// Whatever was not placed by chance goes into a last message.
		for sw.plants > 0 {
			sw.plants--
			parent = sw.message(parent, `{"role":"user","content":`+q(g.text(60)+" "+Phrase+" "+g.text(60))+`,"timestamp":`+fmt.Sprint(g.clock.UnixMilli())+`}`)
		}
	}
}

func (sw *sessionWriter) close(mod time.Time) error {
	if sw.err == nil {
		sw.err = sw.w.Flush()
	}
	if err := sw.f.Close(); sw.err == nil {
		sw.err = err
	}
	if sw.err == nil {
		sw.err = os.Chtimes(sw.path, mod, mod)
	}
	return sw.err
}

func fileName(t time.Time, id string) string {
	return strings.NewReplacer(":", "-", ".", "-").Replace(stamp(t)) + "_" + id + ".jsonl"
}

func (g *gen) write(out string, total int64, sessions int, treeBytes int64, hits int) error {
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return fmt.Errorf("%s is not empty", out)
	}
	project := filepath.Join(out, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		return err
	}
	agentDir := filepath.Join(out, "agent")
	dir := filepath.Join(agentDir, "sessions", sessiondir.Name(project))
	// Session sizes: log-uniform between 8 KiB and 4 MiB, scaled to the budget.
	weights := make([]float64, sessions)
	sum := 0.0
	for i := range weights {
		weights[i] = math.Exp(math.Log(8<<10) + g.rnd.Float64()*(math.Log(4<<20)-math.Log(8<<10)))
		sum += weights[i]
	}
	rest := float64(total - treeBytes)
	// Planted phrases: four fifths in ordinary sessions, the rest in the tree.
	plant := make([]int, sessions)
	treePlants := hits / 5
	for k := 0; k < hits-treePlants; k++ {
		plant[g.rnd.IntN(sessions)]++
	}
	for i := range sessions {
		id := g.uuid()
		created := g.tick()
		sw, err := g.create(filepath.Join(dir, fileName(created, id)), id, project, "", int64(weights[i]/sum*rest))
		if err != nil {
			return err
		}
		sw.plants = plant[i]
		sw.fill("", 0)
		if err := sw.close(created.Add(time.Duration(i) * time.Minute)); err != nil {
			return err
		}
	}
	return g.writeTree(dir, project, treeBytes, treePlants)
}

// writeTree writes a root session and a pi-subagent tree (spec §16–§20)
// of about treeBytes, with a few tool outputs longer than a read buffer.
func (g *gen) writeTree(dir, project string, treeBytes int64, plants int) error {
	rootID, treeID := g.uuid(), g.uuid()
	created := g.tick()
	rootPath := filepath.Join(dir, fileName(created, rootID))
	root, err := g.create(rootPath, rootID, project, "", 2<<20)
	if err != nil {
		return err
	}
	marker := root.entry("custom", "", `"customType":"pi-subagent/tree-v2","data":{"version":1,"id":"`+treeID+`","rootSessionId":"`+rootID+`"}`)
	const agents = 30
	per := (treeBytes - 2<<20) / agents
	treeDir := filepath.Join(dir, rootID+".subagents", treeID)
	state := map[string]any{"version": 1, "id": treeID, "rootSessionId": rootID, "rootMailbox": []any{}}
	records := map[string]any{}
	parent := marker
	for k := range agents {
		path := fmt.Sprintf("/root/worker_%02d", k)
		if k%3 == 2 {
			path = fmt.Sprintf("/root/worker_%02d/helper", k-1)
		}
		reg := root.entry("custom", parent, `"customType":"pi-subagent/registration-v2","data":{"treeId":"`+treeID+`","path":"`+path+`"}`)
		parent = reg
		agentID := g.uuid()
		ac := g.tick()
		file := filepath.Join(treeDir, "sessions", fileName(ac, agentID))
		aw, err := g.create(file, agentID, project, rootPath, per)
		if err != nil {
			return err
		}
		if k < plants {
			aw.plants = 1
		}
		d := aw.entry("custom", "", `"customType":"pi-subagent/descriptor","data":{"version":5,"id":"`+g.uuid()+`","path":"`+path+`","anchorId":"`+reg+`"}`)
		d = aw.entry("session_info", d, `"name":`+q("[subagent] "+path))
		big := 0
		if k%7 == 0 {
			big = 2<<20 + g.rnd.IntN(1<<20) // longer than the 1 MiB read buffer
		}
		aw.fill(d, big)
		if err := aw.close(ac); err != nil {
			return err
		}
		records[path] = map[string]any{"sessionFile": file, "status": "completed", "mailbox": []any{},
			"descriptor": map[string]any{"version": 5, "path": path}}
	}
	root.fill(parent, 0)
	if err := root.close(created.Add(1000 * time.Hour)); err != nil {
		return err
	}
	state["agents"] = records
	data, err := json.Marshal(state)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(treeDir, "state.json"), append(data, '\n'), 0o600)
}
