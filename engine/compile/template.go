package compile

import (
	"strings"

	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// blockRenderer is pi-forge's ForgeTemplateRenderer: one prompt environment
// and one macro cache shared by every block of a compilation.
type blockRenderer struct {
	runtime    *jsonv.Object
	parameters *jsonv.Object
	macros     *forgev1.MacroResolver
}

func newBlockRenderer(stack *preset.Stack, runtime *Runtime, tools []string, macros map[string]string) *blockRenderer {
	registry := make(map[string]forgev1.Macro, len(macros))
	for name, value := range macros {
		if forgev1.ValidMacroName(name) {
			registry[name] = forgev1.StaticMacro(value)
		}
	}
	env := BuildPromptEnvironment(stack, *runtime, tools)
	return &blockRenderer{
		runtime:    env.Runtime.(*jsonv.Object),
		parameters: env.Parameters.(*jsonv.Object),
		macros:     forgev1.NewMacroResolver(registry),
	}
}

// render renders one block; any failure records its diagnostic(s) and
// omits the block (returns "").
func (b *blockRenderer) render(text string, diags *[]Diagnostic, itemID string) string {
	template, err := forgev1.Parse(text)
	if err != nil {
		*diags = append(*diags, newDiagnostic(levelError, err.Diagnostic(), itemID))
		return ""
	}
	if first := template.FirstError(); first != nil {
		for _, e := range template.Analyze().Errors {
			*diags = append(*diags, newDiagnostic(levelError, e.Diagnostic(), itemID))
		}
		return ""
	}
	env := forgev1.Env{Runtime: b.runtime, Parameters: b.parameters, Extensions: b.macros.Resolved()}
	out, err := template.Render(env, forgev1.Options{Macros: b.macros})
	if err != nil {
		*diags = append(*diags, newDiagnostic(levelError, err.Diagnostic(), itemID))
		return ""
	}
	return out
}

// templateUsesTimeOrDate reports whether a block reads `time`/`runtime.time`
// or `date`/`runtime.date` (unparseable templates read nothing).
func templateUsesTimeOrDate(content string) (usesTime, usesDate bool) {
	if !strings.Contains(content, "time") && !strings.Contains(content, "date") {
		return false, false
	}
	template, err := forgev1.Parse(content)
	if err != nil {
		return false, false
	}
	for _, dep := range template.Analyze().Dependencies {
		var name string
		switch {
		case dep.Kind == "legacy" && len(dep.Path) == 1:
			name = dep.Path[0]
		case dep.Kind == "runtime" && len(dep.Path) == 2:
			name = dep.Path[1]
		default:
			continue
		}
		usesTime = usesTime || name == "time"
		usesDate = usesDate || name == "date"
	}
	return usesTime, usesDate
}

// BuildPromptEnvironment is pi-forge's buildPromptEnvironment (spec §8.5):
// the runtime, parameters and (empty) extensions objects a block sees.
// tools are the policy-filtered selected tools; nil computes them.
func BuildPromptEnvironment(stack *preset.Stack, runtime Runtime, tools []string) forgev1.Env {
	if tools == nil {
		tools = preset.ApplyResourcePolicy(runtime.Options.SelectedTools, stack.Tools)
		if tools == nil {
			tools = []string{}
		}
	}
	toolList := make([]any, len(tools))
	toolFlags := jsonv.NewObject()
	for i, name := range tools {
		toolList[i] = name
		toolFlags.Set(name, true)
	}
	slotFlags := jsonv.NewObject()
	for i := range stack.Items {
		item := &stack.Items[i]
		if item.Kind == preset.KindSlot && item.IsEnabled() && item.Slot != "" {
			slotFlags.Set(item.Slot, true)
		}
	}
	activeModel := ""
	if runtime.Model != nil {
		activeModel = runtime.Model.Provider + "/" + runtime.Model.ID
	}
	lastUser := ""
	if runtime.LatestUserMessage != nil {
		lastUser = *runtime.LatestUserMessage
	}

	rt := jsonv.NewObject()
	rt.Set("cwd", runtime.Options.Cwd)
	rt.Set("date", localDate(runtime.Now))
	rt.Set("time", localTime(runtime.Now))
	rt.Set("lastUserMessage", lastUser)
	rt.Set("selectedTools", toolList)
	rt.Set("selectedToolsText", strings.Join(tools, ", "))
	rt.Set("activeModel", activeModel)
	rt.Set("populatedAt", isoString(runtime.Now))
	rt.Set("timezone", "local")
	rt.Set("tool", toolFlags)
	rt.Set("slot", slotFlags)

	params := jsonv.NewObject()
	source := stack.Variables
	if stack.SchemaVersion == 2 {
		source = stack.Parameters
	}
	if source != nil {
		for _, key := range source.Keys() {
			v, _ := source.Get(key)
			params.Set(key, v)
		}
	}
	return forgev1.Env{Runtime: rt, Parameters: params, Extensions: jsonv.NewObject()}
}
