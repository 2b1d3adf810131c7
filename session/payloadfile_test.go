package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
)

var payloadMod = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

func TestParsePayloadCapture(t *testing.T) {
	req, _ := jsonv.Parse([]byte(`{"model":"m","apiKey":"sk-1","system":[{"type":"text","text":"Be brief."}],"messages":[{"role":"user","content":"hi"}]}`))
	f := turndiff.FormatPayload(req)
	p := ParsePayload("a.json", []byte(f.Text), payloadMod)
	if p.Kind != PayloadCapture || !p.Valid || p.Recovery != nil {
		t.Fatalf("%+v", p)
	}
	want := turndiff.ExtractPayload("a.json", "2026-11-30T08:00:00.000Z", "", f.Payload, f.Text)
	if jsonv.Stringify(turndiff.TurnJSON(&p.Turn)) != jsonv.Stringify(turndiff.TurnJSON(&want)) {
		t.Errorf("turn %s", jsonv.Stringify(turndiff.TurnJSON(&p.Turn)))
	}
	if len(p.Losses) != 1 || p.Losses[0].Kind != turndiff.LossSecret || p.Losses[0].Path != "apiKey" {
		t.Errorf("losses %+v", p.Losses)
	}
}

func TestParsePayloadTruncated(t *testing.T) {
	req := jsonv.NewObject()
	req.Set("model", "m")
	var msgs []any
	for i := 0; i < 30; i++ {
		m := jsonv.NewObject()
		m.Set("role", "user")
		m.Set("content", strings.Repeat("lorem ipsum ", 900))
		msgs = append(msgs, m)
	}
	req.Set("messages", msgs)
	f := turndiff.FormatPayload(req)
	p := ParsePayload("cut.json", []byte(f.Text), time.Time{})
	if p.Valid || p.Recovery == nil || !p.Recovery.Noted || len(p.Turn.Blocks) != 1 || p.Turn.Blocks[0].Key != turndiff.KeyPayloadText {
		t.Fatalf("kind %s valid %v blocks %d", p.Kind, p.Valid, len(p.Turn.Blocks))
	}
	if p.Turn.Blocks[0].Chars != f.Chars || p.Turn.CapturedAt != "" {
		t.Errorf("payload-text block %d chars, file %d", p.Turn.Blocks[0].Chars, f.Chars)
	}
	rt, ok := p.RecoveredTurn()
	if !ok || len(rt.Blocks) != 2+p.Recovery.Messages || rt.Blocks[0].Key != "request-model" {
		t.Errorf("recovered %d blocks for %d messages", len(rt.Blocks), p.Recovery.Messages)
	}
}

func TestParsePayloadTurnSnapshot(t *testing.T) {
	p := ParsePayload("t.json", []byte(`{"turnId":"turn-1","capturedAt":"x","stackId":"s","blocks":[{"key":"system","role":"system","text":"hello","chars":5,"approxTokens":2,"hash":"abcd0123"}]}`), payloadMod)
	if p.Kind != PayloadTurn || p.Turn.TurnID != "turn-1" || p.Turn.Blocks[0].Hash != "abcd0123" {
		t.Fatalf("%+v", p.Turn)
	}
	bad := ParsePayload("t.json", []byte(`{"turnId":"turn-1","blocks":[{"key":1}]}`), payloadMod)
	if bad.Kind != PayloadCapture || !strings.Contains(bad.TurnError, "blocks[0].key") {
		t.Errorf("%+v", bad)
	}
}

func TestParsePayloadInvalidUTF8(t *testing.T) {
	p := ParsePayload("x", []byte("not json \xff"), payloadMod)
	if p.Text != "not json \uFFFD" || p.Turn.Blocks[0].Text != p.Text || p.Recovery.SyntaxError == "" {
		t.Errorf("%+v", p)
	}
}

func TestReadPayloadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	if err := os.WriteFile(path, []byte(`{"model":"m"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPayloadFile(path)
	if err != nil || !p.Valid || p.ModTime.IsZero() {
		t.Fatalf("%v %+v", err, p)
	}
	if _, err := ReadPayloadFile(dir); !errors.Is(err, ErrNotPayloadFile) {
		t.Errorf("a directory is not a payload: %v", err)
	}
}

func FuzzParsePayload(f *testing.F) {
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"turnId":"t","blocks":[{"key":"k","role":"r","text":"x"}]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"cut`))
	f.Add([]byte("\xff\xfe{"))
	f.Add([]byte(`{"system":"s"}` + turndiff.TruncationNote))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := ParsePayload("f", data, time.Time{})
		if len(p.Turn.Blocks) == 0 && p.Kind == PayloadCapture {
			t.Fatal("a capture always has a block")
		}
		if !p.Valid {
			if p.Recovery == nil || len(p.Turn.Blocks) != 1 || p.Turn.Blocks[0].Text != p.Text {
				t.Fatal("invalid JSON must be one payload-text block with a recovery report")
			}
			p.RecoveredTurn()
		}
		d := turndiff.DiffTurns(&p.Turn, &p.Turn)
		if d.Summary.ChangedBlocks != 0 {
			t.Fatal("self diff changed")
		}
	})
}

func TestListPayloads(t *testing.T) {
	dir := t.TempDir()
	if got, err := ListPayloads(filepath.Join(dir, "missing")); err != nil || got != nil {
		t.Fatalf("a missing directory: %v %v", got, err)
	}
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"b.json", "a.json", "c.txt", "d.json"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := old
		if name == "d.json" {
			at = old.Add(time.Hour)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := ListPayloads(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, filepath.Base(p.Path))
	}
	if strings.Join(names, ",") != "d.json,b.json,a.json" {
		t.Errorf("order %v (newest first, then by name descending)", names)
	}
}
