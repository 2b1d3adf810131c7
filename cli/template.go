package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// TemplateCmd groups the forge-v1 template commands.
type TemplateCmd struct {
	Render TemplateRenderCmd `cmd:"" help:"Render a forge-v1 template."`
}

// TemplateRenderCmd renders a template in one of two forms.
type TemplateRenderCmd struct {
	File      string   `arg:"" optional:"" help:"Template file to render against this workspace's runtime (friendly form)."`
	Request   string   `help:"Render a JSON request {template, env:{runtime,parameters,extensions}, templateLimit?, macros?} from FILE or - (stdin); prints {\"ok\":true,\"text\":…} or {\"ok\":false,\"stage\":…,\"error\":{kind,message,span?}} and exits 0 either way." placeholder:"FILE|-" xor:"form"`
	Param     []string `short:"p" sep:"none" help:"Parameter NAME=VALUE (a string), seen as {{ parameters.NAME }}; the whole argument is one value, commas included: repeat the flag for several." placeholder:"NAME=VALUE"`
	ParamJSON []string `name:"param-json" sep:"none" help:"Parameter NAME=JSON (any JSON value); the whole argument is one value, commas included: repeat the flag for several." placeholder:"NAME=JSON"`
	Macros    string   `help:"JSON file of extension macro values {name: string}, seen as {{ extensions.name }}. forgebench cannot run TypeScript extension modules, so their values are supplied here." placeholder:"FILE"`
	Model     string   `help:"Active model as provider/model-id (runtime.activeModel)." placeholder:"PROVIDER/ID"`
	Limit     int      `help:"Output limit in UTF-16 code units." default:"100000"`
}

// Run renders the template; the friendly form exits 1 on a template error.
func (c *TemplateRenderCmd) Run(g *Globals) error {
	if c.Request != "" {
		if c.File != "" {
			return failErr(exitUsage, i18n.Errorf("give either --request or a template FILE, not both"))
		}
		data, err := readInput(c.Request)
		if err != nil {
			return inputFailed(err)
		}
		out, err := forgev1.RenderRequestJSON(data)
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		_, err = g.stdout.Write(out)
		return err
	}
	if c.File == "" {
		return failErr(exitUsage, i18n.Errorf("give a template FILE or --request FILE|-"))
	}
	src, err := readInput(c.File)
	if err != nil {
		return inputFailed(err)
	}
	params, err := c.parameters()
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	macros, err := readMacros(c.Macros)
	if err != nil {
		return inputFailed(err)
	}
	model, err := parseModelFlag(c.Model)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	rt, _, err := resources.PiDefaultRuntime(ws, model, time.Now())
	if err != nil {
		return err
	}
	stack := &preset.Stack{SchemaVersion: 2, Parameters: params}
	env := compile.BuildPromptEnvironment(stack, rt, nil)
	resolver := forgev1.NewMacroResolver(staticMacros(macros))
	text, terr := forgev1.Render(string(src), env, forgev1.Options{Limit: c.Limit, Macros: resolver})
	if terr != nil {
		return fail(exitFailed, "%s: %s", c.File, describeTemplateError(string(src), terr))
	}
	_, err = fmt.Fprint(g.stdout, sanitize.Text(text))
	return err
}

func (c *TemplateRenderCmd) parameters() (*jsonv.Object, error) {
	params := jsonv.NewObject()
	for _, p := range c.Param {
		name, value, ok := strings.Cut(p, "=")
		if !ok || name == "" {
			return nil, i18n.Errorf("--param %q: want NAME=VALUE", p)
		}
		params.Set(name, value)
	}
	for _, p := range c.ParamJSON {
		name, raw, ok := strings.Cut(p, "=")
		if !ok || name == "" {
			return nil, i18n.Errorf("--param-json %q: want NAME=JSON", p)
		}
		v, err := jsonv.Parse([]byte(raw))
		if err != nil {
			return nil, i18n.Errorf("--param-json %s: %w", name, err)
		}
		params.Set(name, v)
	}
	return params, nil
}

func staticMacros(values map[string]string) map[string]forgev1.Macro {
	if len(values) == 0 {
		return nil
	}
	out := make(map[string]forgev1.Macro, len(values))
	for k, v := range values {
		out[k] = forgev1.StaticMacro(v)
	}
	return out
}

// describeTemplateError adds a line:column position to an engine error so a
// human can find it; spans are UTF-16 offsets into the template.
func describeTemplateError(src string, e *forgev1.Error) string {
	msg := e.Diagnostic()
	if e.Span == nil {
		return msg
	}
	line, col := 1, 1
	units := 0
	for _, r := range src {
		if units >= e.Span.Start {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return fmt.Sprintf("%d:%d: %s", line, col, msg)
}
