package capstate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

const (
	reviewJSON     = `{"schemaVersion":1,"type":"pi-forge.capability","id":"review","name":"Review","description":"Report findings and evidence before editing.","content":"List findings, evidence, and risks. Do not directly edit files.","tools":{"add":[],"remove":["bash","powershell","write","edit"]}}`
	writeToolsJSON = `{"schemaVersion":1,"type":"pi-forge.capability","id":"write-tools","name":"Write tools","description":"Enable bash and edit for task commands/edits.","content":"Use bash and edit only as needed for the current task. Disable this capability when finished.","tools":{"add":["bash","edit"],"remove":[]}}`
	workerJSON     = `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"read-first-worker","name":"Read-first Worker","autoActivate":false,"mode":"replace","tools":{"allow":["read","ls","forge_capability","bash","edit"],"initial":["read","ls","forge_capability"]},"capabilities":[{"id":"write-tools","ref":"project:write-tools","modelCallable":true}],"items":[]}`
)

// workspace builds a trusted (or not) workspace from capability and
// Preset JSON texts, all in project scope.
func workspace(t testing.TB, trusted bool, caps []string, presets []string) *capability.Workspace {
	t.Helper()
	var entries []*capability.Entry
	for i, raw := range caps {
		entries = append(entries, capability.Load([]byte(raw), fmt.Sprintf("c%d.json", i), preset.ScopeProject))
	}
	cat := capability.NewCatalog(entries...)
	ws := &capability.Workspace{Trusted: trusted, Catalog: cat}
	for _, raw := range presets {
		stack, diags := preset.ParseWith([]byte(raw), "p.json", preset.ParseOptions{Scope: preset.ScopeProject})
		if diags.HasErrors() {
			t.Fatalf("preset diagnostics %+v", diags)
		}
		ws.Presets = append(ws.Presets, &capability.PresetRef{Key: capability.Key{Scope: preset.ScopeProject, ID: stack.ID}, Stack: stack,
			Bindings: capability.ResolveBindings(stack, preset.ScopeProject, cat)})
	}
	return ws
}

func defaultWorkspace(t testing.TB) *capability.Workspace {
	return workspace(t, true, []string{reviewJSON, writeToolsJSON}, []string{workerJSON})
}

// builder writes a linear Pi session line by line.
type builder struct {
	buf  bytes.Buffer
	n    int
	last string
}

func newBuilder() *builder {
	b := &builder{}
	b.buf.WriteString(`{"type":"session","version":3,"id":"00000000-0000-4000-8000-000000000001","timestamp":"2026-10-01T10:00:00.000Z","cwd":"/work/project"}` + "\n")
	return b
}

// add appends an entry of the given type with the given extra fields
// (a JSON object body without braces) and returns its id.
func (b *builder) add(typ, fields string) string {
	b.n++
	id := fmt.Sprintf("%08x", b.n)
	parent := "null"
	if b.last != "" {
		parent = `"` + b.last + `"`
	}
	if fields != "" {
		fields += ","
	}
	fmt.Fprintf(&b.buf, `{"type":%q,%s"id":%q,"parentId":%s,"timestamp":"2026-10-01T10:%02d:%02d.000Z"}`+"\n", typ, fields, id, parent, (b.n/60)%60, b.n%60)
	b.last = id
	return id
}

func (b *builder) custom(customType string, data any) string {
	return b.add("custom", `"customType":`+jsonv.Quote(customType)+`,"data":`+jsonv.Stringify(data))
}

func (b *builder) message(role, body string) string {
	return b.add("message", `"message":{"role":`+jsonv.Quote(role)+`,`+body+`}`)
}

func (b *builder) session(t testing.TB) *session.Session {
	t.Helper()
	s, err := session.Read(bytes.NewReader(b.buf.Bytes()), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (b *builder) file(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, b.buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// systemMessage declares tools the way Pi ≥ 0.86 records its prompt.
func systemMessage(added ...string) string {
	var tools []string
	for _, n := range added {
		tools = append(tools, `{"name":`+jsonv.Quote(n)+`,"description":"d","parameters":{}}`)
	}
	return `"content":"","sections":{"preamble":"You are a coding assistant."},"toolsAdded":[` + strings.Join(tools, ",") + `],"timestamp":1`
}

func assistant(provider, model string) string {
	return `"content":[{"type":"text","text":"ok"}],"api":"x","provider":` + jsonv.Quote(provider) + `,"model":` + jsonv.Quote(model) +
		`,"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2`
}

func seq() capability.Options {
	n := 0
	return capability.Options{Now: func() float64 { return 1790000000000 }, NewID: func() string {
		n++
		return fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
	}}
}

func inputs(ws *capability.Workspace) Inputs {
	return Inputs{Workspace: ws, Catalog: catalog.Default()}
}

func mustObj(s string) *jsonv.Object {
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v.(*jsonv.Object)
}
