package profile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func TestParseModelRef(t *testing.T) {
	cases := []struct {
		in   string
		want Model
		ok   bool
	}{
		{"anthropic/claude-sonnet-4-5", Model{"anthropic", "claude-sonnet-4-5"}, true},
		{" openrouter/openai/gpt-4o ", Model{"openrouter", "openai/gpt-4o"}, true},
		{"anthropic", Model{}, false},
		{"/x", Model{}, false},
		{"x/ ", Model{}, false},
	}
	for _, c := range cases {
		got, ok := ParseModelRef(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %+v %v", c.in, got, ok)
		}
	}
}

func TestThinkingLevels(t *testing.T) {
	levelMap := func(src string) *jsonv.Object {
		v, err := jsonv.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return v.(*jsonv.Object)
	}
	cases := []struct {
		reasoning bool
		levelMap  string
		supported string
		clamp     map[string]string
	}{
		{false, `{}`, "off", map[string]string{"high": "off", "off": "off"}},
		{true, `{}`, "off,minimal,low,medium,high", map[string]string{"xhigh": "high", "max": "high", "low": "low"}},
		{true, `{"xhigh":"xhigh","minimal":null}`, "off,low,medium,high,xhigh", map[string]string{"minimal": "low", "max": "xhigh", "xhigh": "xhigh"}},
		{true, `{"off":null,"minimal":null,"low":null,"medium":null,"high":null}`, "", map[string]string{"high": "off"}},
		{true, `{"off":null}`, "minimal,low,medium,high", map[string]string{"off": "minimal", "bogus": "minimal"}},
	}
	for _, c := range cases {
		m := levelMap(c.levelMap)
		if got := strings.Join(SupportedThinkingLevels(c.reasoning, m), ","); got != c.supported {
			t.Errorf("%v %s: supported %s, want %s", c.reasoning, c.levelMap, got, c.supported)
		}
		for level, want := range c.clamp {
			if got := ClampThinkingLevel(c.reasoning, m, level); got != want {
				t.Errorf("%v %s: clamp %s → %s, want %s", c.reasoning, c.levelMap, level, got, want)
			}
		}
	}
	if got := ClampThinkingLevel(true, nil, "max"); got != "high" {
		t.Errorf("nil map: %s", got)
	}
}
