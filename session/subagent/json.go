package subagent

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session/catalog"
)

// TaskPreviewRunes bounds the task preview of a listing.
const TaskPreviewRunes = 240

// obj builds an ordered object from key, value pairs.
func obj(pairs ...any) *jsonv.Object {
	o := jsonv.NewObject()
	for i := 0; i+1 < len(pairs); i += 2 {
		o.Set(pairs[i].(string), pairs[i+1])
	}
	return o
}

// nullIfEmpty gives null for "".
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TaskPreview folds whitespace and keeps at most TaskPreviewRunes
// characters (no sanitising: JSON carries the text as recorded).
func TaskPreview(task string) string {
	out := strings.Join(strings.Fields(task), " ")
	if utf8.RuneCountInString(out) <= TaskPreviewRunes {
		return out
	}
	return string([]rune(out)[:TaskPreviewRunes-1]) + "…"
}

// AgentJSON is one object of `agents list --json`. The keys the contract
// names come first: path, parent, depth, role, status, lifecycle, model,
// thinking, task, created, requests, toolCalls, tokens {input, output,
// cacheRead, cacheWrite}, cost (null when unavailable) and runtimeMs (null
// when unknown); then visible, hidden, nestedToolCalls, mailbox, outbox,
// error, sessionFile, lastResponse, modelDiffers, context, runtimeSource.
func AgentJSON(a *Agent, cat *catalog.Catalog) *jsonv.Object {
	sel := a.Selected()
	var requests, toolCalls, nested any = nil, nil, nil
	tokens := any(nil)
	if a.Summary != nil {
		st := &a.Summary.Stats
		requests, toolCalls, nested = float64(st.AssistantMessages), float64(st.ToolCalls), float64(a.Summary.NestedToolCalls)
		tokens = obj("input", st.Tokens.Input, "output", st.Tokens.Output, "cacheRead", st.Tokens.CacheRead, "cacheWrite", st.Tokens.CacheWrite)
	}
	var cost, runtime any
	if c, ok := a.Cost(); ok {
		cost = c
	}
	ms, source, known := a.Runtime()
	if known {
		runtime = ms
	}
	var lastResponse any
	if lr := a.LastResponse(); lr != nil {
		lastResponse = obj("model", lr.Model.String(), "thinking", nullIfEmpty(lr.Thinking))
	}
	var context any
	if ce := a.Context(cat); ce.Known {
		var window, percent any
		if ce.Window > 0 {
			window, percent = ce.Window, round2(ce.Percent)
		}
		context = obj("tokens", ce.Tokens, "window", window, "percent", percent, "source", ce.Source)
	}
	hidden := any(nil)
	if !a.Visible {
		hidden = a.Hidden
	}
	file := a.File
	if file == "" {
		file = a.SessionFile
	}
	return obj(
		"path", a.Path, "parent", a.Parent, "depth", float64(a.Depth),
		"role", a.Descriptor.Role.Name, "status", a.Status, "lifecycle", a.Lifecycle,
		"model", sel.Model.String(), "thinking", sel.Thinking,
		"task", TaskPreview(a.Task()), "created", a.Descriptor.CreatedAt,
		"requests", requests, "toolCalls", toolCalls, "tokens", tokens,
		"cost", cost, "runtimeMs", runtime,
		"visible", a.Visible, "hidden", hidden, "nestedToolCalls", nested,
		"mailbox", float64(len(a.Mailbox)), "outbox", float64(len(a.Outbox)),
		"error", nullIfEmpty(a.Error), "sessionFile", file,
		"lastResponse", lastResponse, "modelDiffers", a.ModelDiffers(),
		"context", context, "runtimeSource", nullIfEmpty(source),
	)
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// ListJSON is the array `agents list --json` prints.
func ListJSON(agents []*Agent, cat *catalog.Catalog) []any {
	out := make([]any, 0, len(agents))
	for _, a := range agents {
		out = append(out, AgentJSON(a, cat))
	}
	return out
}

// ShowJSON is `agents show --json`: AgentJSON plus the descriptor, the
// mailboxes, usage by model, run intervals, recent activity, the tree's
// run slots and the diagnostics about this agent.
func ShowJSON(t *Tree, a *Agent, activity []ActivityItem, cat *catalog.Catalog) *jsonv.Object {
	o := AgentJSON(a, cat)
	d := &a.Descriptor
	tools := any(nil)
	if d.Role.HasTools {
		list := make([]any, len(d.Role.Tools))
		for i, t := range d.Role.Tools {
			list[i] = t
		}
		tools = list
	}
	o.Set("descriptor", obj(
		"version", d.Version, "id", d.ID, "cwd", d.Cwd, "forkTurns", d.ForkTurns, "anchorId", d.AnchorID,
		"roleDescription", d.Role.Description, "roleSource", d.Role.Source, "tools", tools,
		"roleModel", nullIfEmpty(d.Role.Model), "roleThinking", nullIfEmpty(d.Role.Thinking),
		"settings", obj("agentScope", d.Settings.AgentScope, "maxDepth", d.Settings.MaxDepth,
			"maxConcurrentAgents", d.Settings.MaxConcurrentAgents, "inheritExtensions", d.Settings.InheritExtensions,
			"openAIIdentity", d.Settings.OpenAIIdentity, "maxOutputBytes", d.Settings.MaxOutputBytes),
	))
	o.Set("runId", nullIfEmpty(a.RunID))
	o.Set("mailboxMessages", mailJSON(a.Mailbox))
	o.Set("outboxMessages", mailJSON(a.Outbox))
	o.Set("task", a.Task())
	if a.Summary != nil {
		rows := make([]any, 0, len(a.Summary.Stats.ByModel))
		for _, r := range a.Summary.Stats.ByModel {
			rows = append(rows, obj("key", r.Key, "cost", r.Cost, "tokens", r.Tokens))
		}
		runs := make([]any, 0, len(a.Summary.Runs))
		for _, r := range a.Summary.Runs {
			runs = append(runs, obj("start", finiteOrNull(r.Start), "end", finiteOrNull(r.End)))
		}
		o.Set("byModel", rows)
		o.Set("runs", runs)
		o.Set("inheritedEntries", float64(a.Summary.InheritedEntries))
		o.Set("unpricedUsages", float64(len(a.Summary.Stats.Unpriced)))
	}
	items := make([]any, 0, len(activity))
	for _, it := range activity {
		items = append(items, obj("time", finiteOrNull(it.TimeMs), "kind", it.Kind, "title", it.Title,
			"preview", it.Preview, "truncated", it.Truncated, "error", it.Error))
	}
	o.Set("activity", items)
	o.Set("activeRuns", float64(t.ActiveRuns()))
	o.Set("maxConcurrentAgents", t.MaxConcurrentAgents)
	var diags []any
	for _, dg := range t.Diagnostics {
		if dg.Agent == a.Path {
			diags = append(diags, obj("severity", dg.Severity, "file", nullIfEmpty(dg.File), "message", dg.Message))
		}
	}
	if diags == nil {
		diags = []any{}
	}
	o.Set("diagnostics", diags)
	return o
}

func mailJSON(ms []Mail) []any {
	out := make([]any, 0, len(ms))
	for _, m := range ms {
		out = append(out, obj("id", m.ID, "from", m.From, "to", m.To, "kind", m.Kind, "text", m.Text,
			"createdAt", nullIfEmpty(m.CreatedAt), "runId", nullIfEmpty(m.RunID)))
	}
	return out
}

func finiteOrNull(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}

func stringsJSON(ss []string) []any {
	out := make([]any, 0, len(ss))
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}

// RolesJSON is `agents roles --json`.
func RolesJSON(c *RoleCatalog) *jsonv.Object {
	roles := make([]any, 0, len(c.Roles))
	for _, r := range c.Roles {
		var tools any
		if r.HasTools {
			tools = stringsJSON(r.Tools)
		}
		roles = append(roles, obj("name", r.Name, "description", r.Description, "source", r.Source, "file", r.File,
			"tools", tools, "model", nullIfEmpty(r.Model), "thinking", nullIfEmpty(r.Thinking), "shadows", stringsJSON(r.Shadows)))
	}
	return obj("scope", c.Scope, "userDir", c.UserDir, "projectDir", nullIfEmpty(c.ProjectDir), "roles", roles,
		"errors", stringsJSON(c.Errors), "warnings", stringsJSON(c.Warnings), "bundled030", stringsJSON(BundledRoles030),
		"valid", c.Valid())
}

// ConfigJSON is `agents config --json`.
func ConfigJSON(c *Config) *jsonv.Object {
	v := c.Values
	sources := jsonv.NewObject()
	for _, k := range configKeys {
		sources.Set(k, c.Sources[k])
	}
	files := make([]any, 0, len(c.Files))
	for _, f := range c.Files {
		files = append(files, obj("scope", f.Scope, "path", f.Path, "present", f.Present, "skipped", nullIfEmpty(f.Skipped),
			"keys", stringsJSON(f.Keys), "errors", stringsJSON(f.Errors), "hints", stringsJSON(f.Hints)))
	}
	return obj("values", obj("agentScope", v.AgentScope, "maxDepth", v.MaxDepth, "maxConcurrentAgents", v.MaxConcurrentAgents,
		"inheritExtensions", v.InheritExtensions, "openAIIdentity", v.OpenAIIdentity, "maxOutputBytes", v.MaxOutputBytes),
		"sources", sources, "files", files, "valid", c.Valid())
}
