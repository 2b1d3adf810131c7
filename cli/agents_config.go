package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/subagent"
)

// AgentsRolesCmd lists the role catalog.
type AgentsRolesCmd struct {
	JSON bool `name:"json" help:"Print {scope, userDir, projectDir, roles: [{name, description, source, file, tools, model, thinking, shadows}], errors, warnings, bundled030, valid}."`
}

// Run prints the roles a session in this project would see; exit 1 when a
// role file is invalid.
func (c *AgentsRolesCmd) Run(g *Globals) error {
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	cfg := subagent.LoadConfig(ws.AgentDir, ws.Cwd, ws.Trust.Trusted)
	cat := subagent.LoadRoles(ws.AgentDir, ws.Cwd, cfg.Values.AgentScope, ws.Trust.Trusted)
	if c.JSON {
		if _, err := io.WriteString(g.stdout, jsonv.StringifyIndent(subagent.RolesJSON(cat), "  ")+"\n"); err != nil {
			return err
		}
	} else {
		writeRoles(g.stdout, cat)
	}
	for _, w := range cat.Warnings {
		fmt.Fprintln(g.stderr, "warning: "+sanitize.Line(w))
	}
	if !cat.Valid() {
		for _, e := range cat.Errors {
			fmt.Fprintln(g.stderr, "error: "+sanitize.Line(e))
		}
		return failErr(exitFailed, i18n.Errorf("%d role diagnostic(s)", len(cat.Errors)))
	}
	return nil
}

func writeRoles(w io.Writer, cat *subagent.RoleCatalog) {
	fmt.Fprint(w, i18n.T("agentScope %s · user roles %s", sanitize.Line(cat.Scope), sanitize.Line(cat.UserDir)))
	if cat.ProjectDir != "" {
		fmt.Fprint(w, i18n.T(" · project roles %s", sanitize.Line(cat.ProjectDir)))
	}
	fmt.Fprintln(w)
	if len(cat.Roles) == 0 {
		fmt.Fprintln(w, i18n.T("no roles: agents use the default policy (no agent_type parameter is offered)"))
	} else {
		rows := []string{i18n.T("NAME\tSOURCE\tTOOLS\tMODEL\tTHINKING\tDESCRIPTION")}
		for _, r := range cat.Roles {
			tools := i18n.T("(default policy)")
			if r.HasTools {
				tools = strings.Join(r.Tools, ", ")
				if len(r.Tools) == 0 {
					tools = i18n.T("none")
				}
			}
			source := r.Source
			if len(r.Shadows) > 0 {
				source += i18n.T(" (overrides %d)", len(r.Shadows))
			}
			rows = append(rows, strings.Join([]string{sanitize.Clip(r.Name, 64), source, sanitize.Clip(tools, 60),
				sanitize.Clip(orDash(r.Model), 40), orDash(sanitize.Clip(r.Thinking, 10)), sanitize.Clip(r.Description, 80)}, "\t"))
		}
		writeColumns(w, rows)
	}
	fmt.Fprint(w, i18n.T("\npi-subagent 0.3.0 also bundled %s inside its package; v5 installs no roles, and old sessions show them as source \"bundled\".\n",
		strings.Join(subagent.BundledRoles030, ", ")))
}

// AgentsConfigCmd shows subagent.json.
type AgentsConfigCmd struct {
	JSON bool `name:"json" help:"Print {values, sources, files: [{scope, path, present, skipped, keys, errors, hints}], valid}."`
}

// Run prints the effective settings and the files they came from; exit 1
// when a file is invalid.
func (c *AgentsConfigCmd) Run(g *Globals) error {
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	cfg := subagent.LoadConfig(ws.AgentDir, ws.Cwd, ws.Trust.Trusted)
	if c.JSON {
		if _, err := io.WriteString(g.stdout, jsonv.StringifyIndent(subagent.ConfigJSON(cfg), "  ")+"\n"); err != nil {
			return err
		}
	} else {
		writeConfig(g.stdout, cfg)
	}
	if !cfg.Valid() {
		n := 0
		for _, f := range cfg.Files {
			for _, e := range f.Errors {
				fmt.Fprintln(g.stderr, "error: "+sanitize.Line(e))
				n++
			}
			for _, h := range f.Hints {
				fmt.Fprintln(g.stderr, "hint: "+sanitize.Line(h))
			}
		}
		return failErr(exitFailed, i18n.Errorf("%d configuration error(s); pi-subagent refuses an invalid file whole", n))
	}
	return nil
}

func writeConfig(w io.Writer, cfg *subagent.Config) {
	v := cfg.Values
	settings := []struct{ key, value string }{
		{"agentScope", v.AgentScope}, {"maxDepth", number(v.MaxDepth)}, {"maxConcurrentAgents", number(v.MaxConcurrentAgents)}, //i18n:raw setting names (contract)
		{"inheritExtensions", fmt.Sprint(v.InheritExtensions)}, {"openAIIdentity", fmt.Sprint(v.OpenAIIdentity)}, //i18n:raw setting names (contract)
		{"maxOutputBytes", number(v.MaxOutputBytes)}, //i18n:raw setting names (contract)
	}
	rows := []string{i18n.T("SETTING\tVALUE\tFROM")}
	for _, r := range settings {
		rows = append(rows, r.key+"\t"+sanitize.Line(r.value)+"\t"+cfg.Sources[r.key])
	}
	writeColumns(w, rows)
	fmt.Fprintln(w)
	for _, f := range cfg.Files {
		state := i18n.T("not present")
		switch {
		case f.Skipped != "":
			state = i18n.T("not read: %s", f.Skipped)
		case len(f.Errors) > 0:
			state = i18n.T("invalid (%d error(s))", len(f.Errors))
		case f.Present:
			state = i18n.T("read")
		}
		fmt.Fprintf(w, "%-8s %s — %s\n", f.Scope, sanitize.Line(f.Path), state)
	}
}
