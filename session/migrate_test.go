package session

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

var hex8 = regexp.MustCompile(`^[0-9a-f]{8}$`)

func TestMigrateV1(t *testing.T) {
	s := openTestdata(t, "v1.jsonl")
	if !s.Migrated || s.Header.FileVersion != 1 {
		t.Fatalf("migrated=%v version=%v", s.Migrated, s.Header.FileVersion)
	}
	prev := ""
	for i, e := range s.Entries {
		if !hex8.MatchString(e.ID) || !e.Migrated {
			t.Fatalf("entry %d id %q", i, e.ID)
		}
		if i == 0 && e.HasParent {
			t.Error("first migrated entry must be a root")
		}
		if i > 0 && e.ParentID != prev {
			t.Errorf("entry %d parent %q, want %q", i, e.ParentID, prev)
		}
		prev = e.ID
	}
	comp := &s.Entries[4]
	kept, ok := comp.FirstKeptEntryID()
	if !ok || kept != s.Entries[2].ID {
		t.Errorf("firstKeptEntryIndex 3 → %q, want id of line 4 (%s)", kept, s.Entries[2].ID)
	}
	v, err := comp.Value()
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(*jsonv.Object)
	if _, has := obj.Get("firstKeptEntryIndex"); has {
		t.Error("firstKeptEntryIndex must be deleted")
	}
	if got, _ := obj.Get("firstKeptEntryId"); got != kept {
		t.Errorf("Value firstKeptEntryId = %v", got)
	}
	c, err := s.Context(s.LeafIndex())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := roles(t, c.AgentMessages()), []string{"compactionSummary", "user", "user"}; !reflect.DeepEqual(got, want) {
		t.Errorf("roles = %v, want %v", got, want)
	}
	plain := decodeAll(t, c.AgentMessages()).([]any)
	if plain[1].(map[string]any)["content"] != "three" || plain[0].(map[string]any)["tokensBefore"] != float64(1234) {
		t.Errorf("context = %v", plain)
	}
	if tl, _ := c.ThinkingLevel.Str(); tl != "high" {
		t.Errorf("thinking = %s", tl)
	}
	h, err := s.HeaderValue()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := h.Get("version"); v != float64(3) {
		t.Errorf("migrated header version = %v", v)
	}
	if v, _ := h.Get("modelId"); v != "claude-old" {
		t.Errorf("v1 header fields must be kept, modelId = %v", v)
	}
}

func TestMigrateV2(t *testing.T) {
	s := openTestdata(t, "v2.jsonl")
	if !s.Migrated || s.Entries[0].Migrated || s.Entries[0].ID != "b0000001" {
		t.Fatalf("v2 ids must be kept: %+v", s.Entries[0])
	}
	e := &s.Entries[1]
	if e.Role != RoleCustom {
		t.Errorf("role = %q, want custom", e.Role)
	}
	m, err := e.Message()
	if err != nil || m.Role != RoleCustom || m.CustomType != "hook/x" {
		t.Errorf("typed message = %+v, %v", m, err)
	}
	llm := decodeAll(t, mustContext(t, s, "b0000002").LLMMessages()).([]any)
	if len(llm) != 2 || llm[1].(map[string]any)["role"] != "user" {
		t.Errorf("hookMessage must reach the model as user text: %v", llm)
	}
	if string(e.MessageField("role")) != `"custom"` {
		t.Errorf("MessageField(role) = %s", e.MessageField("role"))
	}
}

func TestCurrentVersionNotMigrated(t *testing.T) {
	s := mustRead(t, testHeader+"\n"+`{"type":"message","id":"m","parentId":null,"timestamp":"t","message":{"role":"hookMessage","content":"x"}}`+"\n")
	if s.Migrated || s.Entries[0].Role != RoleHookMessage {
		t.Errorf("v3 file must not be migrated (role %q)", s.Entries[0].Role)
	}
}

// Pi converts firstKeptEntryIndex inside the same walk that assigns ids:
// only a number is converted (and deleted); a target after the compaction
// has no id yet, so firstKeptEntryId becomes undefined; a header target
// leaves any stored firstKeptEntryId alone.
func TestMigrateV1FirstKeptEntryIndexEdgeCases(t *testing.T) {
	const head = `{"type":"session","id":"v1","timestamp":"2025-12-01T09:00:00.000Z","cwd":"/"}` + "\n"
	const msg = `{"type":"message","timestamp":"2025-12-01T09:00:01.000Z","message":{"role":"user","content":"m","timestamp":1}}` + "\n"
	compaction := func(extra string) string {
		return `{"type":"compaction","timestamp":"2025-12-01T09:00:02.000Z","summary":"s","tokensBefore":1` + extra + "}\n"
	}
	value := func(s *Session, i int) *jsonv.Object {
		v, err := s.Entries[i].Value()
		if err != nil {
			t.Fatal(err)
		}
		return v.(*jsonv.Object)
	}

	// Index 3 is the message after the compaction (header 0, msg 1, compaction 2).
	s := mustRead(t, head+msg+compaction(`,"firstKeptEntryId":"stale","firstKeptEntryIndex":3`)+msg)
	if id, ok := s.Entries[1].FirstKeptEntryID(); ok {
		t.Errorf("later target: firstKeptEntryId = %q, want undefined", id)
	}
	obj := value(s, 1)
	if _, has := obj.Get("firstKeptEntryId"); has {
		t.Errorf("later target: Value keeps firstKeptEntryId: %s", jsonv.Stringify(obj))
	}
	if _, has := obj.Get("firstKeptEntryIndex"); has {
		t.Error("numeric firstKeptEntryIndex must be deleted")
	}
	if p, err := s.Entries[1].Payload(); err != nil || p.(*Compaction).FirstKeptEntryID != "" {
		t.Errorf("later target: typed payload keeps %+v (%v)", p, err)
	}

	// The compaction itself (index 2): its own, already assigned id.
	s = mustRead(t, head+msg+compaction(`,"firstKeptEntryIndex":2`))
	if id, _ := s.Entries[1].FirstKeptEntryID(); id != s.Entries[1].ID {
		t.Errorf("self target: firstKeptEntryId = %q, want own id %q", id, s.Entries[1].ID)
	}

	// A string index is not converted and stays in the entry.
	s = mustRead(t, head+msg+compaction(`,"firstKeptEntryIndex":"1"`))
	if id, ok := s.Entries[1].FirstKeptEntryID(); ok {
		t.Errorf("string index converted to %q", id)
	}
	if v, has := value(s, 1).Get("firstKeptEntryIndex"); !has || v != "1" {
		t.Errorf("string firstKeptEntryIndex must stay, got %v", v)
	}

	// Header target: deleted index, stored firstKeptEntryId kept as is.
	s = mustRead(t, head+msg+compaction(`,"firstKeptEntryId":"keep","firstKeptEntryIndex":0`))
	if id, _ := s.Entries[1].FirstKeptEntryID(); id != "keep" {
		t.Errorf("header target: firstKeptEntryId = %q, want the stored one", id)
	}
	obj = value(s, 1)
	if _, has := obj.Get("firstKeptEntryIndex"); has {
		t.Error("header target: numeric firstKeptEntryIndex must be deleted")
	}
}
