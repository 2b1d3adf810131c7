package compile

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Request is a decoded CLI compile request.
type Request struct {
	Stack    *preset.Stack
	Runtime  Runtime
	Base     string
	Messages []any
	Macros   map[string]string
}

// CompileRequestJSON runs one compile request and returns the result JSON
// followed by "\n". The request is
//
//	{"stack":{…},"runtime":{"options":{…},"model"?:{…},"latestUserMessage"?:…,"now":ISO},
//	 "base":…,"messages":[AgentMessage…],"macros"?:{…},"slots"?:{…}}
//
// runtime.options mirrors pi-forge's PromptCompileOptions (cwd,
// selectedTools, toolSnippets, promptGuidelines, appendSystemPrompt,
// contextFiles, skills). `now` carries the local time zone through its UTC
// offset; the optional runtime.utcOffsetMinutes overrides it and the
// optional runtime.piDocsRoot sets the `pi-docs` slot's package root.
// "slots" are custom slot outputs supplied for the preview
// (Runtime.CustomSlots). A malformed request is an error.
func CompileRequestJSON(request []byte) ([]byte, error) {
	req, err := ParseRequest(request)
	if err != nil {
		return nil, err
	}
	result := Compile(req.Stack, req.Runtime, req.Base, req.Messages, req.Macros)
	return []byte(jsonv.Stringify(ResultJSON(result)) + "\n"), nil
}

// ParseRequest decodes and checks a compile request; the stack goes through
// the Preset codec.
func ParseRequest(request []byte) (Request, error) {
	root, err := jsonv.Parse(request)
	if err != nil {
		return Request{}, fmt.Errorf("compile request: %w", err)
	}
	obj, ok := root.(*jsonv.Object)
	if !ok {
		return Request{}, errors.New("compile request: root must be a JSON object")
	}
	var req Request

	stackValue, ok := obj.Get("stack")
	if _, isObject := stackValue.(*jsonv.Object); !ok || !isObject {
		return Request{}, errors.New("compile request: stack must be an object")
	}
	req.Stack = parseStack(stackValue)

	runtimeValue, _ := obj.Get("runtime")
	if req.Runtime, err = parseRuntime(runtimeValue); err != nil {
		return Request{}, fmt.Errorf("compile request: runtime: %w", err)
	}

	base, ok := obj.Get("base")
	if req.Base, ok = base.(string); !ok {
		return Request{}, errors.New("compile request: base must be a string")
	}

	messagesValue, _ := obj.Get("messages")
	messages, ok := messagesValue.([]any)
	if !ok {
		return Request{}, errors.New("compile request: messages must be an array")
	}
	for i, m := range messages {
		if _, isObject := m.(*jsonv.Object); !isObject {
			return Request{}, fmt.Errorf("compile request: messages[%d] must be an object", i)
		}
	}
	req.Messages = messages

	if macrosValue, present := obj.Get("macros"); present && macrosValue != nil {
		macros, isObject := macrosValue.(*jsonv.Object)
		if !isObject {
			return Request{}, errors.New("compile request: macros must be an object")
		}
		req.Macros = make(map[string]string, macros.Len())
		for _, key := range macros.Keys() {
			v, _ := macros.Get(key)
			s, isString := v.(string)
			if !isString {
				return Request{}, fmt.Errorf("compile request: macros.%s must be a string", key)
			}
			if !forgev1.ValidMacroName(key) {
				return Request{}, fmt.Errorf("compile request: invalid macro name %q", key)
			}
			req.Macros[key] = s
		}
	}
	if slotsValue, present := obj.Get("slots"); present && slotsValue != nil {
		if req.Runtime.CustomSlots, err = ParseCustomSlots(slotsValue, "compile request: slots"); err != nil {
			return Request{}, err
		}
	}
	return req, nil
}

func parseRuntime(value any) (Runtime, error) {
	obj, ok := value.(*jsonv.Object)
	if !ok {
		return Runtime{}, errors.New("must be an object")
	}
	var rt Runtime
	optionsValue, _ := obj.Get("options")
	options, err := parseOptions(optionsValue)
	if err != nil {
		return Runtime{}, fmt.Errorf("options: %w", err)
	}
	rt.Options = options

	if modelValue, present := obj.Get("model"); present && modelValue != nil {
		model, ok := modelValue.(*jsonv.Object)
		if !ok {
			return Runtime{}, errors.New("model must be an object")
		}
		provider, okProvider := stringField(model, "provider")
		id, okID := stringField(model, "id")
		if !okProvider || !okID {
			return Runtime{}, errors.New("model needs string provider and id")
		}
		api, _, err := optionalString(model, "api")
		if err != nil {
			return Runtime{}, fmt.Errorf("model.%w", err)
		}
		rt.Model = &Model{Provider: provider, ID: id, API: api}
	}

	if latest, present, err := optionalString(obj, "latestUserMessage"); err != nil {
		return Runtime{}, err
	} else if present {
		rt.LatestUserMessage = &latest
	}

	if root, _, err := optionalString(obj, "piDocsRoot"); err != nil {
		return Runtime{}, err
	} else {
		rt.PiDocsRoot = root
	}

	nowText, ok := stringField(obj, "now")
	if !ok {
		return Runtime{}, errors.New("now must be an ISO-8601 string")
	}
	if rt.Now, err = ParseISOTime(nowText); err != nil {
		return Runtime{}, err
	}
	if offsetValue, present := obj.Get("utcOffsetMinutes"); present && offsetValue != nil {
		minutes, isNumber := offsetValue.(float64)
		if !isNumber || minutes != math.Trunc(minutes) || math.Abs(minutes) > 24*60 {
			return Runtime{}, errors.New("utcOffsetMinutes must be an integer number of minutes")
		}
		rt.Now = rt.Now.In(time.FixedZone("", int(minutes)*60))
	}
	return rt, nil
}

// optionalString reads a key that must be a string when present and not null.
func optionalString(obj *jsonv.Object, key string) (string, bool, error) {
	v, present := obj.Get(key)
	if !present || v == nil {
		return "", false, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", false, fmt.Errorf("%s must be a string", key)
	}
	return s, true, nil
}

func parseOptions(value any) (Options, error) {
	obj, ok := value.(*jsonv.Object)
	if !ok {
		return Options{}, errors.New("must be an object")
	}
	var o Options
	if o.Cwd, ok = stringField(obj, "cwd"); !ok {
		return Options{}, errors.New("cwd must be a string")
	}
	var err error
	if o.SelectedTools, err = optionalStringList(obj, "selectedTools"); err != nil {
		return Options{}, err
	}
	if o.PromptGuidelines, err = optionalStringList(obj, "promptGuidelines"); err != nil {
		return Options{}, err
	}
	if append, present, err := optionalString(obj, "appendSystemPrompt"); err != nil {
		return Options{}, err
	} else if present {
		o.AppendSystemPrompt = &append
	}
	if snippetsValue, present := obj.Get("toolSnippets"); present && snippetsValue != nil {
		snippets, isObject := snippetsValue.(*jsonv.Object)
		if !isObject {
			return Options{}, errors.New("toolSnippets must be an object")
		}
		o.ToolSnippets = make(map[string]string, snippets.Len())
		for _, key := range snippets.Keys() {
			v, _ := snippets.Get(key)
			s, isString := v.(string)
			if !isString {
				return Options{}, fmt.Errorf("toolSnippets.%s must be a string", key)
			}
			o.ToolSnippets[key] = s
		}
	}
	if o.ContextFiles, err = parseContextFiles(obj); err != nil {
		return Options{}, err
	}
	if o.Skills, err = parseSkills(obj); err != nil {
		return Options{}, err
	}
	return o, nil
}

func optionalStringList(obj *jsonv.Object, key string) ([]string, error) {
	v, present := obj.Get(key)
	if !present || v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an array of strings", key)
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, isString := e.(string)
		if !isString {
			return nil, fmt.Errorf("%s[%d] must be a string", key, i)
		}
		out[i] = s
	}
	return out, nil
}

func objectList(obj *jsonv.Object, key string) ([]*jsonv.Object, error) {
	v, present := obj.Get(key)
	if !present || v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an array", key)
	}
	out := make([]*jsonv.Object, len(arr))
	for i, e := range arr {
		o, isObject := e.(*jsonv.Object)
		if !isObject {
			return nil, fmt.Errorf("%s[%d] must be an object", key, i)
		}
		out[i] = o
	}
	return out, nil
}

func parseContextFiles(obj *jsonv.Object) ([]ContextFile, error) {
	list, err := objectList(obj, "contextFiles")
	if err != nil || list == nil {
		return nil, err
	}
	files := make([]ContextFile, len(list))
	for i, o := range list {
		path, okPath := stringField(o, "path")
		content, okContent := stringField(o, "content")
		if !okPath || !okContent {
			return nil, fmt.Errorf("contextFiles[%d] needs string path and content", i)
		}
		files[i] = ContextFile{Path: path, Content: content}
	}
	return files, nil
}

func parseSkills(obj *jsonv.Object) ([]Skill, error) {
	list, err := objectList(obj, "skills")
	if err != nil || list == nil {
		return nil, err
	}
	skills := make([]Skill, len(list))
	for i, o := range list {
		name, okName := stringField(o, "name")
		description, okDescription := stringField(o, "description")
		filePath, okPath := stringField(o, "filePath")
		if !okName || !okDescription || !okPath {
			return nil, fmt.Errorf("skills[%d] needs string name, description and filePath", i)
		}
		baseDir, _, err := optionalString(o, "baseDir")
		if err != nil {
			return nil, fmt.Errorf("skills[%d].%w", i, err)
		}
		disabled := false
		if v, present := o.Get("disableModelInvocation"); present {
			disabled = jsonv.Truthy(v)
		}
		skills[i] = Skill{Name: name, Description: description, FilePath: filePath, BaseDir: baseDir, DisableModelInvocation: disabled}
	}
	return skills, nil
}

// ParseISOTime parses the ISO-8601 forms JavaScript's Date accepts from
// toISOString and friends: a date-time with "Z" or a ±hh:mm offset
// (fractional seconds optional), or a bare date (UTC midnight). The result is
// truncated to milliseconds and located in the given offset's fixed zone.
func ParseISOTime(text string) (time.Time, error) {
	layouts := []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04Z07:00"}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, text); err == nil {
			return t.Truncate(time.Millisecond), nil
		}
	}
	if t, err := time.Parse("2006-01-02", text); err == nil {
		return t.UTC(), nil
	}
	if strings.Contains(text, "T") {
		return time.Time{}, fmt.Errorf("now %q must be ISO-8601 with \"Z\" or a UTC offset", text)
	}
	return time.Time{}, fmt.Errorf("now %q is not an ISO-8601 date", text)
}

// ResultJSON converts a compile result into the CLI's JSON value
// ({"system":{…},"messages":{…}}).
func ResultJSON(result Result) *jsonv.Object {
	system := jsonv.NewObject()
	system.Set("systemPrompt", result.System.SystemPrompt)
	system.Set("diagnostics", DiagnosticsJSON(result.System.Diagnostics))

	messages := jsonv.NewObject()
	list := result.Messages.Messages
	if list == nil {
		list = []any{}
	}
	messages.Set("messages", list)
	sources := make([]any, len(result.Messages.MessageSources))
	for i, s := range result.Messages.MessageSources {
		sources[i] = SourceJSON(s)
	}
	messages.Set("messageSources", sources)
	messages.Set("diagnostics", DiagnosticsJSON(result.Messages.Diagnostics))

	root := jsonv.NewObject()
	root.Set("system", system)
	root.Set("messages", messages)
	return root
}

// DiagnosticsJSON renders diagnostics as [{level, message, itemId?}].
func DiagnosticsJSON(diags []Diagnostic) []any {
	out := make([]any, len(diags))
	for i, d := range diags {
		o := jsonv.NewObject()
		o.Set("level", string(d.Level))
		o.Set("message", d.Message)
		if d.ItemID != "" {
			o.Set("itemId", d.ItemID)
		}
		out[i] = o
	}
	return out
}

// SourceJSON renders a message source with pi-forge's key order.
func SourceJSON(s MessageSource) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("kind", s.Kind)
	if s.Kind != SourceImplicitHistory {
		o.Set("itemId", s.ItemID)
	}
	if s.ItemName != nil {
		o.Set("itemName", *s.ItemName)
	}
	if s.Kind != SourceStackItem {
		o.Set("slot", s.Slot)
		o.Set("historyIndex", float64(s.HistoryIndex))
		o.Set("historyCount", float64(s.HistoryCount))
	}
	o.Set("role", s.Role)
	if s.MergedItems != nil {
		items := make([]any, len(s.MergedItems))
		for i, m := range s.MergedItems {
			item := jsonv.NewObject()
			item.Set("itemId", m.ItemID)
			if m.ItemName != nil {
				item.Set("itemName", *m.ItemName)
			}
			items[i] = item
		}
		o.Set("mergedItems", items)
	}
	return o
}

// requestStackBasename names the request's stack for the codec's id fallback.
const requestStackBasename = "stack.json"

// parseStack normalizes the request's stack through the Preset codec; its
// validation diagnostics are not part of the compile output.
func parseStack(value any) *preset.Stack {
	stack, _ := preset.ParseValue(value, requestStackBasename, preset.ParseOptions{})
	return stack
}

// ParseRuntimeJSON decodes a runtime object of the compile-request shape
// (`{"options":{…},"model"?:…,"latestUserMessage"?:…,"now":ISO}`) on its
// own, for callers that assemble the other parts themselves.
func ParseRuntimeJSON(data []byte) (Runtime, error) {
	value, err := jsonv.Parse(data)
	if err != nil {
		return Runtime{}, fmt.Errorf("runtime: %w", err)
	}
	rt, err := parseRuntime(value)
	if err != nil {
		return Runtime{}, fmt.Errorf("runtime: %w", err)
	}
	return rt, nil
}
