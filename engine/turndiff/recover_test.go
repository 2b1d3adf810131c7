package turndiff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func mustParse(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRecoverTruncatedCapture cuts a real display rendering the way
// pi-forge does and checks what Recover reports against the request.
func TestRecoverTruncatedCapture(t *testing.T) {
	req := jsonv.NewObject()
	req.Set("model", "claude-sonnet-4-5")
	req.Set("system", "You are terse.")
	var msgs []any
	for i := 0; i < 40; i++ {
		m := jsonv.NewObject()
		m.Set("role", []string{"user", "assistant"}[i%2])
		m.Set("content", strings.Repeat("word "+itoa(i)+" é😀 ", 700))
		msgs = append(msgs, m)
	}
	req.Set("messages", msgs)
	req.Set("tools", []any{"read"})
	f := FormatPayload(req)
	if !f.Truncated {
		t.Fatal("test request should be cut")
	}
	turn := ExtractPayload("f", "", "", nil, f.Text)
	if len(turn.Blocks) != 1 || turn.Blocks[0].Key != KeyPayloadText || turn.Blocks[0].Text != f.Text {
		t.Fatalf("a cut payload must be one payload-text block, got %d blocks", len(turn.Blocks))
	}
	r := Recover(f.Text)
	if !r.Noted || r.KeptChars != MaxDisplayChars || r.SyntaxError != "" {
		t.Fatalf("noted %v kept %d err %q", r.Noted, r.KeptChars, r.SyntaxError)
	}
	if strings.Join(r.Fields, ",") != "model,system" || r.CutField != "messages" {
		t.Errorf("fields %v cut %q", r.Fields, r.CutField)
	}
	got := r.Value.(*jsonv.Object)
	gm, _ := got.Get("messages")
	list := gm.([]any)
	if r.Messages == 0 || r.Messages >= 40 || len(list) != r.Messages+1 || r.CutMessage == nil || r.CutMessage.Index != r.Messages {
		t.Fatalf("messages %d (list %d) cut %+v", r.Messages, len(list), r.CutMessage)
	}
	for i := 0; i < r.Messages; i++ {
		if jsonv.Stringify(list[i]) != jsonv.Stringify(msgs[i]) {
			t.Errorf("message %d not recovered whole", i)
		}
	}
	cut := MessageText(list[r.Messages])
	full := MessageText(msgs[r.Messages])
	if r.CutMessage.TextChars != jsonv.UTF16Len(cut) || !strings.HasPrefix(full, strings.TrimSuffix(cut, "\uFFFD")) || len(cut) >= len(full) {
		t.Errorf("cut message text %d chars is not a prefix of the original", r.CutMessage.TextChars)
	}
	if _, ok := got.Get("tools"); ok {
		t.Error("tools came after the cut and cannot be recovered")
	}
}

// TestRecoverPrefixes cuts small payloads at every byte and checks that
// whatever Recover keeps is what the payload holds.
func TestRecoverPrefixes(t *testing.T) {
	for _, src := range []string{
		`{"model":"m","system":[{"type":"text","text":"a\"b\\c\u00e9\ud83d\ude00"}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"yo"}]}],"n":-1.5e3,"ok":true,"z":null}`,
		`{"messages":[]}`, `[]`, `"s"`, `{"a":{"b":[1,2,{"c":"d"}]}}`,
	} {
		full := mustParse(t, src)
		for cut := 0; cut <= len(src); cut++ {
			r := Recover(src[:cut])
			if r.SyntaxError != "" {
				t.Fatalf("prefix %q: %s", src[:cut], r.SyntaxError)
			}
			if cut == len(src) && jsonv.Stringify(r.Value) != jsonv.Stringify(full) {
				t.Errorf("whole text %s recovered as %s", src, jsonv.Stringify(r.Value))
			}
			if o, ok := full.(*jsonv.Object); ok {
				for _, k := range r.Fields {
					want, _ := o.Get(k)
					got, _ := r.Value.(*jsonv.Object).Get(k)
					if jsonv.Stringify(got) != jsonv.Stringify(want) {
						t.Errorf("prefix %q: field %s = %s, want %s", src[:cut], k, jsonv.Stringify(got), jsonv.Stringify(want))
					}
				}
			}
		}
	}
}

func TestRecoverNotJSON(t *testing.T) {
	r := Recover("hello world")
	if r.SyntaxError == "" || r.Value != nil {
		t.Errorf("got %+v", r)
	}
	r = Recover(`{"a":1,"b":nope}`)
	if r.SyntaxError == "" || strings.Join(r.Fields, ",") != "a" {
		t.Errorf("got %+v", r)
	}
}

func TestLosses(t *testing.T) {
	req := mustParse(t, `{"apiKey":"sk","headers":{"Authorization":"Bearer x","max_tokens":5},"img":"data:image/png;base64,AA",
		"long":"`+strings.Repeat("ab-", 5000)+`","b64":"`+strings.Repeat("QUJD", 2500)+`","list":[`+strings.TrimSuffix(strings.Repeat("1,", 85), ",")+`]}`)
	f := FormatPayload(req)
	got := Losses(f.Payload)
	var kinds []string
	for _, l := range got {
		kinds = append(kinds, l.Kind+"@"+l.Path+"#"+itoa(l.Count))
	}
	want := "secret@apiKey#0 secret@headers.Authorization#0 image@img#0 string@long#15000 base64@b64#10000 items@list[80]#5"
	if strings.Join(kinds, " ") != want {
		t.Errorf("losses\n got %s\nwant %s", strings.Join(kinds, " "), want)
	}
}

// TestRecoverRandomCuts cuts rendered random requests at random points.
func TestRecoverRandomCuts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200; n++ {
		req := jsonv.NewObject()
		var msgs []any
		for i := 0; i < 1+rng.IntN(6); i++ {
			m := jsonv.NewObject()
			m.Set("role", "user")
			m.Set("content", strings.Repeat("x\"é\\😀\n", rng.IntN(20)))
			msgs = append(msgs, m)
		}
		req.Set("messages", msgs)
		text := jsonv.StringifyIndent(req, "  ")
		cut := rng.IntN(len(text))
		r := Recover(text[:cut])
		if r.SyntaxError != "" {
			t.Fatalf("cut %d: %s", cut, r.SyntaxError)
		}
		for i := 0; i < r.Messages; i++ {
			got, _ := r.Value.(*jsonv.Object).Get("messages")
			if jsonv.Stringify(got.([]any)[i]) != jsonv.Stringify(msgs[i]) {
				t.Fatalf("cut %d: message %d differs", cut, i)
			}
		}
	}
}

func FuzzRecover(f *testing.F) {
	f.Add(`{"model":"m","messages":[{"role":"user","content":"a`)
	f.Add(`{"a":[1,2,{"b":"\u12`)
	f.Add("{\"x\":\"\\")
	f.Add(`[tru`)
	f.Add(`{"system":"s"}` + TruncationNote)
	f.Fuzz(func(t *testing.T, text string) {
		r := Recover(text)
		if r.KeptChars > jsonv.UTF16Len(text) {
			t.Fatalf("kept %d of %d", r.KeptChars, jsonv.UTF16Len(text))
		}
		if v, err := jsonv.Parse([]byte(text)); err == nil && r.SyntaxError == "" {
			if jsonv.Stringify(r.Value) != jsonv.Stringify(v) {
				t.Fatalf("valid JSON recovered differently: %s vs %s", jsonv.Stringify(r.Value), jsonv.Stringify(v))
			}
		}
		_ = Losses(r.Value)
		turn := ExtractPayload("t", "", "", r.Value, text)
		if len(turn.Blocks) == 0 {
			t.Fatal("no blocks")
		}
	})
}
