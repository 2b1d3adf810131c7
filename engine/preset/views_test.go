package preset

import (
	"reflect"
	"testing"
)

func TestItemAndStackViews(t *testing.T) {
	s, _ := Parse([]byte(`{"id":"v","items":[{"kind":"slot","id":"d","name":"Date","slot":"date","options":{"includeTime":true,"format":"plain","n":"x"}},{"kind":"block","id":"b","enabled":false,"content":""}]}`), "v.json")
	date, block := &s.Items[0], &s.Items[1]
	if date.DisplayName() != "Date" || block.DisplayName() != "b" || !date.IsEnabled() || block.IsEnabled() {
		t.Error("DisplayName/IsEnabled")
	}
	if v, ok := date.OptionBool("includeTime"); !v || !ok {
		t.Error("OptionBool includeTime")
	}
	if _, ok := date.OptionBool("n"); ok {
		t.Error("OptionBool on a string")
	}
	if v, ok := date.Option("format"); !ok || v != "plain" {
		t.Error("Option format")
	}
	if _, ok := block.Option("format"); ok {
		t.Error("block has no options")
	}
	if s.EffectiveMode() != ModeReplace {
		t.Error("EffectiveMode default")
	}
	if v := s.ContextView(); v.MergeSeparator != "\n\n" || v.AllowDuplicateChatHistory {
		t.Errorf("ContextView default = %+v", v)
	}
	if s.TemplateParameters().Len() != 0 {
		t.Error("TemplateParameters of a stack without variables")
	}
	v1, _ := Parse([]byte(`{"id":"v","variables":{"who":"me"},"items":[]}`), "v.json")
	if x, _ := v1.TemplateParameters().Get("who"); x != "me" {
		t.Error("v1 variables are the template parameters")
	}
	if got := FilterTools(&ResourcePolicy{Deny: []string{"b*"}}, []string{"bash", "read"}); !reflect.DeepEqual(got, []string{"read"}) {
		t.Errorf("FilterTools = %v", got)
	}
}
