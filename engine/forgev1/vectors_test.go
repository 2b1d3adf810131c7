package forgev1

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// vector is one entry of fixtures/pi-forge/forge-v1-vectors.json.
type vector struct {
	name     string
	template string
	env      Env
	limit    float64
	expect   string
	err      *Error // nil when expect applies
	quirk    bool
}

func loadVectors(tb testing.TB) []vector {
	tb.Helper()
	parsed, err := jsonv.Parse(fixtures.Read(tb, "pi-forge/forge-v1-vectors.json"))
	if err != nil {
		tb.Fatalf("parse vectors: %v", err)
	}
	list, ok := parsed.([]any)
	if !ok {
		tb.Fatal("vectors file is not an array")
	}
	out := make([]vector, 0, len(list))
	for _, item := range list {
		o := item.(*jsonv.Object)
		get := func(k string) any { v, _ := o.Get(k); return v }
		v := vector{limit: DefaultLimit}
		v.name, _ = get("name").(string)
		v.template, _ = get("template").(string)
		if envObj, ok := get("env").(*jsonv.Object); ok {
			v.env.Runtime, _ = envObj.Get("runtime")
			v.env.Parameters, _ = envObj.Get("parameters")
			v.env.Extensions, _ = envObj.Get("extensions")
		}
		if l, ok := get("templateLimit").(float64); ok {
			v.limit = l
		}
		v.quirk, _ = get("quirk").(bool)
		if e, ok := get("error").(*jsonv.Object); ok {
			eg := func(k string) any { x, _ := e.Get(k); return x }
			v.err = &Error{}
			v.err.Stage, _ = eg("stage").(string)
			v.err.Kind, _ = eg("kind").(string)
			v.err.Message, _ = eg("message").(string)
			if s, ok := eg("span").(*jsonv.Object); ok {
				start, _ := s.Get("start")
				end, _ := s.Get("end")
				v.err.Span = &Span{Start: int(start.(float64)), End: int(end.(float64))}
			}
		} else {
			v.expect, ok = get("expect").(string)
			if !ok {
				tb.Fatalf("vector %q has neither expect nor error", v.name)
			}
		}
		out = append(out, v)
	}
	return out
}

func TestGoldenVectors(t *testing.T) {
	vectors := loadVectors(t)
	if len(vectors) != 102 {
		t.Errorf("expected 102 vectors, got %d", len(vectors))
	}
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			text, err := renderWithLimit(v.template, v.env, nil, v.limit)
			if v.err == nil {
				if err != nil {
					t.Fatalf("unexpected error %+v (span %v)", err, err.Span)
				}
				if text != v.expect {
					t.Fatalf("text = %q, want %q", text, v.expect)
				}
				return
			}
			if err == nil {
				t.Fatalf("rendered %q, want error %+v", text, v.err)
			}
			if err.Stage != v.err.Stage || err.Kind != v.err.Kind || err.Message != v.err.Message {
				t.Fatalf("error = %s/%s/%q, want %s/%s/%q", err.Stage, err.Kind, err.Message, v.err.Stage, v.err.Kind, v.err.Message)
			}
			if (err.Span == nil) != (v.err.Span == nil) || (err.Span != nil && *err.Span != *v.err.Span) {
				t.Fatalf("span = %v, want %v", err.Span, v.err.Span)
			}
		})
	}
}

// TestConditionTruthyDiffersFromToBoolean pins the one place forge-v1
// departs from JavaScript truthiness: empty arrays and objects are false
// in `{% if %}`, while jsonv.Truthy (ToBoolean) calls them true.
func TestConditionTruthyDiffersFromToBoolean(t *testing.T) {
	empty, full := jsonv.NewObject(), jsonv.NewObject()
	full.Set("a", float64(0))
	cases := []struct {
		v            any
		cond, toBool bool
	}{
		{[]any{}, false, true}, {[]any{nil}, true, true},
		{empty, false, true}, {full, true, true},
		{jsUndefined{}, false, true}, {jsObjectPrototype{}, false, true},
		{"", false, false}, {"x", true, true}, {float64(0), false, false}, {nil, false, false},
	}
	for _, c := range cases {
		if got := conditionTruthy(c.v); got != c.cond {
			t.Errorf("conditionTruthy(%#v) = %v, want %v", c.v, got, c.cond)
		}
		if _, isJS := c.v.(jsUndefined); !isJS {
			if _, isProto := c.v.(jsObjectPrototype); !isProto && jsonv.Truthy(c.v) != c.toBool {
				t.Errorf("jsonv.Truthy(%#v) = %v, want %v", c.v, !c.toBool, c.toBool)
			}
		}
	}
}
