package forgev1

import (
	"errors"
	"fmt"
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ErrBadRequest is wrapped by every error RenderRequestJSON returns for a
// malformed request.
var ErrBadRequest = errors.New("invalid forge-v1 render request")

// RenderRequestJSON is the CLI contract as a pure function. The request is
//
//	{"template": string,
//	 "env": {"runtime": {…}, "parameters": {…}, "extensions": {…}},
//	 "templateLimit"?: number,
//	 "macros"?: {name: string | {"value"?: string, "dependencies"?: [string], "error"?: string}}}
//
// where macros are registered extension macros (§8.7) whose values are
// given up front because forgebench cannot run extension modules; the
// object form also declares dependencies or makes the macro fail with the
// given message. The answer is `{"ok":true,"text":…}` or
// `{"ok":false,"stage":…,"error":{"kind":…,"message":…,"span"?:{"start":…,"end":…}}}`
// plus a newline. A malformed request returns an error wrapping ErrBadRequest.
func RenderRequestJSON(request []byte) ([]byte, error) {
	parsed, err := jsonv.Parse(request)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	req, ok := parsed.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("%w: request must be a JSON object", ErrBadRequest)
	}
	tv, _ := req.Get("template")
	template, ok := tv.(string)
	if !ok {
		return nil, fmt.Errorf("%w: \"template\" must be a string", ErrBadRequest)
	}
	env, err := requestEnv(req)
	if err != nil {
		return nil, err
	}
	limit := float64(DefaultLimit)
	if lv, present := req.Get("templateLimit"); present && lv != nil {
		f, ok := lv.(float64)
		if !ok || math.IsNaN(f) {
			return nil, fmt.Errorf("%w: \"templateLimit\" must be a number", ErrBadRequest)
		}
		limit = f
	}
	macros, err := requestMacros(req)
	if err != nil {
		return nil, err
	}
	text, renderErr := renderWithLimit(template, env, macros, limit)
	return encodeResult(text, renderErr), nil
}

func renderWithLimit(src string, env Env, macros *MacroResolver, limit float64) (string, *Error) {
	return renderOnce(src, env, macros, limit)
}

func requestEnv(req *jsonv.Object) (Env, error) {
	ev, present := req.Get("env")
	if !present {
		return Env{}, nil
	}
	envObj, ok := ev.(*jsonv.Object)
	if !ok {
		return Env{}, fmt.Errorf("%w: \"env\" must be an object", ErrBadRequest)
	}
	var env Env
	for _, field := range []struct {
		name string
		dst  *any
	}{{"runtime", &env.Runtime}, {"parameters", &env.Parameters}, {"extensions", &env.Extensions}} {
		v, present := envObj.Get(field.name)
		if !present {
			continue
		}
		if _, ok := v.(*jsonv.Object); !ok {
			return Env{}, fmt.Errorf("%w: \"env.%s\" must be an object", ErrBadRequest, field.name)
		}
		*field.dst = v
	}
	return env, nil
}

func requestMacros(req *jsonv.Object) (*MacroResolver, error) {
	mv, present := req.Get("macros")
	if !present || mv == nil {
		return nil, nil
	}
	mObj, ok := mv.(*jsonv.Object)
	if !ok {
		return nil, fmt.Errorf("%w: \"macros\" must be an object", ErrBadRequest)
	}
	macros := make(map[string]Macro, mObj.Len())
	var bad error
	mObj.Range(func(name string, v any) bool {
		m, err := requestMacro(name, v)
		if err != nil {
			bad = err
			return false
		}
		macros[name] = m
		return true
	})
	if bad != nil {
		return nil, bad
	}
	return NewMacroResolver(macros), nil
}

func requestMacro(name string, v any) (Macro, error) {
	if !ValidMacroName(name) {
		return Macro{}, fmt.Errorf("%w: Macro name must start with a letter and contain only letters, numbers, underscore, or hyphen: %s", ErrBadRequest, name)
	}
	switch t := v.(type) {
	case string:
		return StaticMacro(t), nil
	case *jsonv.Object:
		var m Macro
		if deps, ok := t.Get("dependencies"); ok {
			list, ok := deps.([]any)
			if !ok {
				return Macro{}, fmt.Errorf("%w: macro %s: \"dependencies\" must be an array of strings", ErrBadRequest, name)
			}
			for _, d := range list {
				s, ok := d.(string)
				if !ok {
					return Macro{}, fmt.Errorf("%w: macro %s: \"dependencies\" must be an array of strings", ErrBadRequest, name)
				}
				m.Dependencies = append(m.Dependencies, s)
			}
		}
		failure, hasFailure := t.Get("error")
		value, _ := t.Get("value")
		if hasFailure {
			msg, ok := failure.(string)
			if !ok {
				return Macro{}, fmt.Errorf("%w: macro %s: \"error\" must be a string", ErrBadRequest, name)
			}
			m.Render = func(Env) (string, error) { return "", errors.New(msg) }
			return m, nil
		}
		s, ok := value.(string)
		if !ok {
			return Macro{}, fmt.Errorf("%w: macro %s: \"value\" must be a string", ErrBadRequest, name)
		}
		m.Render = func(Env) (string, error) { return s, nil }
		return m, nil
	}
	return Macro{}, fmt.Errorf("%w: macro %s must be a string or an object", ErrBadRequest, name)
}

// encodeResult serializes the CLI answer with JavaScript JSON escaping.
func encodeResult(text string, e *Error) []byte {
	out := jsonv.NewObject()
	if e == nil {
		out.Set("ok", true)
		out.Set("text", text)
	} else {
		out.Set("ok", false)
		out.Set("stage", e.Stage)
		detail := jsonv.NewObject()
		detail.Set("kind", e.Kind)
		detail.Set("message", e.Message)
		if e.Span != nil {
			span := jsonv.NewObject()
			span.Set("start", float64(e.Span.Start))
			span.Set("end", float64(e.Span.End))
			detail.Set("span", span)
		}
		out.Set("error", detail)
	}
	return append(jsonv.AppendStringify(nil, out), '\n')
}
