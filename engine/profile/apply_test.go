package profile

import (
	"reflect"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func TestPlanRuntimeChangesFollowsPiSetters(t *testing.T) {
	reasoning := ModelInfo{Reasoning: true}
	plain := ModelInfo{}
	sonnet := Model{Provider: "anthropic", ID: "claude-sonnet-4-5"}
	gpt := Model{Provider: "openai", ID: "gpt-5.4"}
	for _, c := range []struct {
		name string
		in   RuntimeInput
		want []RuntimeChange
	}{
		{"same model, same level: nothing", RuntimeInput{Current: &sonnet, CurrentThinking: "medium", Target: sonnet, TargetInfo: reasoning, TargetThinking: "medium"}, nil},
		{"same model, new level: the level only", RuntimeInput{Current: &sonnet, CurrentThinking: "medium", Target: sonnet, TargetInfo: reasoning, TargetThinking: "high"},
			[]RuntimeChange{{Thinking: "high"}}},
		{"new model keeps the switch level, then the profile's", RuntimeInput{Current: &sonnet, CurrentThinking: "medium", SwitchThinking: "medium", Target: gpt, TargetInfo: reasoning, TargetThinking: "high"},
			[]RuntimeChange{{Model: &gpt}, {Thinking: "high"}}},
		{"no model recorded: the model is set", RuntimeInput{CurrentThinking: "off", Target: gpt, TargetInfo: reasoning, TargetThinking: "off"},
			[]RuntimeChange{{Model: &gpt}}},
		{"settings level differs: Pi records it first", RuntimeInput{Current: &sonnet, CurrentThinking: "low", SwitchThinking: "medium", Target: gpt, TargetInfo: reasoning, TargetThinking: "high"},
			[]RuntimeChange{{Model: &gpt}, {Thinking: "medium"}, {Thinking: "high"}}},
		{"a model without reasoning clamps the switch level to off", RuntimeInput{Current: &sonnet, CurrentThinking: "high", Target: gpt, TargetInfo: plain, TargetThinking: "off"},
			[]RuntimeChange{{Model: &gpt}, {Thinking: "off"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := PlanRuntimeChanges(c.in); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestRuntimeChangeEntryFields(t *testing.T) {
	m := Model{Provider: "openai", ID: "gpt-5.4"}
	typ, f := RuntimeChange{Model: &m}.Entry()
	if typ != "model_change" || jsonv.Stringify(f) != `{"provider":"openai","modelId":"gpt-5.4"}` {
		t.Fatalf("%s %s", typ, jsonv.Stringify(f))
	}
	typ, f = RuntimeChange{Thinking: "high"}.Entry()
	if typ != "thinking_level_change" || jsonv.Stringify(f) != `{"thinkingLevel":"high"}` {
		t.Fatalf("%s %s", typ, jsonv.Stringify(f))
	}
}
