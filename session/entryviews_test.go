package session

import (
	"fmt"
	"testing"
)

func TestPayloadTypedViews(t *testing.T) {
	s := openTestdata(t, "v3-all-types.jsonl")
	want := map[string]string{
		"a0000001": "*session.ModelChange", "a0000002": "*session.ThinkingLevelChange", "a0000003": "*session.Message",
		"a0000010": "*session.Custom", "a0000011": "*session.CustomMessage", "a0000012": "*session.LabelChange",
		"a0000013": "*session.SessionInfo", "a0000014": "*session.UsageEntry", "a0000015": "*session.UnknownEntry",
		"a0000018": "*session.ContextEdit", "a0000022": "*session.BranchSummary",
	}
	for id, typ := range want {
		e, ok := s.Entry(id)
		if !ok {
			t.Fatalf("no entry %s", id)
		}
		p, err := e.Payload()
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got := fmt.Sprintf("%T", p); got != typ {
			t.Errorf("%s: payload %s, want %s", id, got, typ)
		}
	}
	e, _ := s.Entry("a0000005")
	m, err := e.Message()
	if err != nil {
		t.Fatal(err)
	}
	if m.Role != RoleAssistant || m.Model != "claude-y" || len(m.ToolCalls()) != 1 || m.ToolCalls()[0].Name != "bash" ||
		m.Usage == nil || m.Usage.ContextTokens() != 15 || m.Usage.Cost.Total != 0.3 || m.Content.Blocks[0].Thinking != "hmm" {
		t.Errorf("assistant view = %+v", m)
	}
	e, _ = s.Entry("a0000007")
	m, _ = e.Message()
	if m.Command != "make" || m.ExitCode == nil || *m.ExitCode != 2 || !m.Truncated || m.FullOutputPath != "/tmp/out.txt" {
		t.Errorf("bashExecution view = %+v", m)
	}
	e, _ = s.Entry("a0000020")
	p, _ := e.Payload()
	if ce := p.(*ContextEdit); ce.TargetID != "a0000011" || ce.Replacement != nil {
		t.Errorf("null replacement view = %+v", ce)
	}
	e, _ = s.Entry("a0000004")
	m, _ = e.Message()
	if !m.Content.IsString || m.Content.PlainText(" ") != "hello" {
		t.Errorf("string content view = %+v", m.Content)
	}
	e, _ = s.Entry("a0000023")
	p, _ = e.Payload()
	if lc := p.(*LabelChange); lc.Label != nil || lc.TargetID != "a0000005" {
		t.Errorf("clearing label view = %+v", lc)
	}
	// Wrong field types are tolerated (left zero), not errors.
	bad := mustRead(t, testHeader+"\n"+`{"type":"model_change","id":"x","parentId":null,"timestamp":"t","provider":7,"modelId":"m"}`+"\n")
	p, err = bad.Entries[0].Payload()
	if mc := p.(*ModelChange); err != nil || mc.ModelID != "m" || mc.Provider != "" {
		t.Errorf("lenient decode = %+v, %v", p, err)
	}
}

func TestCompactionPayloadAfterMigration(t *testing.T) {
	s := openTestdata(t, "v1.jsonl")
	p, err := s.Entries[4].Payload()
	if err != nil {
		t.Fatal(err)
	}
	c := p.(*Compaction)
	if c.FirstKeptEntryID != s.Entries[2].ID || c.TokensBefore != 1234 || c.Summary == "" {
		t.Errorf("compaction view = %+v", c)
	}
}
