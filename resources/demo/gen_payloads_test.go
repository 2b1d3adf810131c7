package demo

// Saved provider payloads: what pi-forge's `/payload next save=<path>`
// writes (spec pi-forge-formats §12.2, the redacted display JSON) for two
// requests of the main session, as an Anthropic Messages request body —
// just before and just after the agent enabled write-access.

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
)

// payloadsRel is the project's saved-payload directory.
const payloadsRel = projectRel + "/.pi/forge/payloads"

// branchSummaryPrefix and branchSummarySuffix wrap a branch summary the way
// Pi sends it to a model.
const (
	branchSummaryPrefix = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
	branchSummarySuffix = "</summary>"
)

// savedPayloads renders the two captures of the guarded session: the
// request that asked to enable write-access and the one right after.
func savedPayloads(session []byte) map[string][]byte {
	entries := map[string]*jsonv.Object{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(string(session)), "\n") {
		v, err := jsonv.Parse([]byte(line))
		if err != nil {
			panic(fmt.Sprintf("demo session line does not parse: %v", err))
		}
		o := v.(*jsonv.Object)
		if pstr(o, "type") == "session" {
			continue
		}
		entries[pstr(o, "id")] = o
		order = append(order, pstr(o, "id"))
	}
	// The assistant that calls forge_capability enable, and the next one.
	var asks, next string
	for _, id := range order {
		e := entries[id]
		if pstr(e, "type") != "message" || pstr(pfield(e, "message"), "role") != "assistant" {
			continue
		}
		if asks != "" && next == "" {
			next = id
			break
		}
		if strings.Contains(jsonv.Stringify(e), `"action":"enable","id":"write-access"`) {
			asks = id
		}
	}
	if asks == "" || next == "" {
		panic("demo session: the write-access requests are missing")
	}
	files := map[string][]byte{}
	// Numbered, so a listing by name (or by time, equal after unpacking)
	// keeps them in order.
	for name, id := range map[string]string{"01-before-write-access.json": asks, "02-after-write-access.json": next} {
		req := anthropicRequest(entries, pstr(entries[id], "parentId"))
		files[payloadsRel+"/"+name] = []byte(turndiff.FormatPayload(req).Text)
	}
	return files
}

func pstr(o *jsonv.Object, key string) string {
	if o == nil {
		return ""
	}
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

func pfield(o *jsonv.Object, key string) *jsonv.Object {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	r, _ := v.(*jsonv.Object)
	return r
}

func plist(o *jsonv.Object, key string) []any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	r, _ := v.([]any)
	return r
}

func jobj(pairs ...any) *jsonv.Object {
	o := jsonv.NewObject()
	for i := 0; i < len(pairs); i += 2 {
		o.Set(pairs[i].(string), pairs[i+1])
	}
	return o
}

// anthropicRequest is the Messages API body Pi sends from the context
// ending at leaf: the replayed system prompt (cached), the declared tools,
// and the conversation with the last user block marked for caching.
func anthropicRequest(entries map[string]*jsonv.Object, leaf string) *jsonv.Object {
	var path []*jsonv.Object
	for id := leaf; id != ""; id = pstr(entries[id], "parentId") {
		path = append([]*jsonv.Object{entries[id]}, path...)
	}
	var sectionKeys []string
	sections := map[string]string{}
	var toolNames []string
	tools := map[string]*jsonv.Object{}
	var messages []any
	for _, e := range path {
		switch pstr(e, "type") {
		case "branch_summary":
			messages = append(messages, jobj("role", "user", "content", []any{
				jobj("type", "text", "text", branchSummaryPrefix+pstr(e, "summary")+branchSummarySuffix)}))
		case "message":
			m := pfield(e, "message")
			switch pstr(m, "role") {
			case "system":
				if so := pfield(m, "sections"); so != nil {
					for _, k := range so.Keys() {
						if _, seen := sections[k]; !seen {
							sectionKeys = append(sectionKeys, k)
						}
						v, _ := so.Get(k)
						sections[k], _ = v.(string)
					}
				}
				for _, t := range plist(m, "toolsRemoved") {
					name := pstr(t.(*jsonv.Object), "name")
					delete(tools, name)
					toolNames = without(toolNames, name)
				}
				for _, t := range plist(m, "toolsAdded") {
					to := t.(*jsonv.Object)
					name := pstr(to, "name")
					if _, seen := tools[name]; !seen {
						toolNames = append(toolNames, name)
					}
					tools[name] = to
				}
			case "user":
				content, _ := m.Get("content")
				if s, ok := content.(string); ok {
					content = []any{jobj("type", "text", "text", s)}
				}
				messages = append(messages, jobj("role", "user", "content", content))
			case "assistant":
				var blocks []any
				for _, b := range plist(m, "content") {
					bo := b.(*jsonv.Object)
					switch pstr(bo, "type") {
					case "thinking":
						blocks = append(blocks, jobj("type", "thinking", "thinking", pstr(bo, "thinking"), "signature", pstr(bo, "thinkingSignature")))
					case "text":
						blocks = append(blocks, jobj("type", "text", "text", pstr(bo, "text")))
					case "toolCall":
						args, _ := bo.Get("arguments")
						blocks = append(blocks, jobj("type", "tool_use", "id", pstr(bo, "id"), "name", pstr(bo, "name"), "input", args))
					}
				}
				messages = append(messages, jobj("role", "assistant", "content", blocks))
			case "toolResult":
				isError, _ := m.Get("isError")
				messages = append(messages, jobj("role", "user", "content", []any{
					jobj("type", "tool_result", "tool_use_id", pstr(m, "toolCallId"), "content", plist(m, "content"), "is_error", isError == true)}))
			}
		}
	}
	if n := len(messages); n > 0 {
		last := messages[n-1].(*jsonv.Object)
		blocks := plist(last, "content")
		blocks[len(blocks)-1].(*jsonv.Object).Set("cache_control", jobj("type", "ephemeral"))
	}
	var prompt []string
	for _, k := range sectionKeys {
		if sections[k] != "" {
			prompt = append(prompt, sections[k])
		}
	}
	toolList := make([]any, 0, len(toolNames))
	for _, name := range toolNames {
		t := tools[name]
		params, _ := t.Get("parameters")
		toolList = append(toolList, jobj("name", name, "description", pstr(t, "description"), "input_schema", params))
	}
	return jobj(
		"model", modelSonnet.id,
		"messages", messages,
		"max_tokens", 32000.0,
		"stream", true,
		"system", []any{jobj("type", "text", "text", strings.Join(prompt, "\n\n"), "cache_control", jobj("type", "ephemeral"))},
		"tools", toolList,
		"thinking", jobj("type", "enabled", "budget_tokens", 8192.0),
	)
}

func without(names []string, name string) []string {
	out := names[:0]
	for _, n := range names {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}
