package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/test/hostile"
)

// demoSession is the demo's main session: capabilities, a branch, a
// compaction and a model switch.
const demoSession = "../resources/demo/workspace/home/.pi/agent/sessions/@@DEMO_SESSION_DIR@@/2026-11-27T09-14-05-112Z_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl"

// runPayload runs the CLI with an empty agent and forge dir.
func runPayload(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	home := t.TempDir()
	return runCLI(t, append([]string{"--agent-dir", home, "--forge-dir", home, "--cwd", home}, args...)...)
}

func writeJSON(t *testing.T, dir, name string, v any) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(jsonv.Stringify(v)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPayloadDiffJSONFixtures runs `payload diff --json` on the fixture
// turns written as turn-snapshot files: the output is pi-forge's diff, byte
// for byte.
func TestPayloadDiffJSONFixtures(t *testing.T) {
	v, err := jsonv.Parse(fixtures.Read(t, "pi-forge/context-diff-fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	checked := 0
	for _, sv := range v.([]any) {
		set := sv.(*jsonv.Object)
		turns := map[string]string{}
		tv, _ := set.Get("turns")
		for _, turn := range tv.([]any) {
			id, _ := turn.(*jsonv.Object).Get("turnId")
			name, _ := set.Get("name")
			turns[id.(string)] = writeJSON(t, dir, name.(string)+"-"+id.(string)+".json", turn)
		}
		dv, _ := set.Get("diffs")
		for _, item := range dv.([]any) {
			o := item.(*jsonv.Object)
			from, _ := o.Get("from")
			to, _ := o.Get("to")
			want, _ := o.Get("diff")
			if from == nil {
				continue
			}
			code, out, errOut := runPayload(t, "payload", "diff", turns[from.(string)], turns[to.(string)], "--json")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if out != jsonv.Stringify(want)+"\n" {
				t.Errorf("%v→%v\n got %s\nwant %s", from, to, out, jsonv.Stringify(want))
			}
			checked++
		}
	}
	if checked != 6 {
		t.Errorf("checked %d fixture diffs", checked)
	}
}

// vectorInput resolves a diff input of the vectors file (see
// engine/turndiff/testdata/README.md): a turn, or {"$runtimeTurnOf": k},
// payload k's runtime turn (itself maybe {"$displayTurnAs": id}). ok is
// false when the turn holds digests of long strings instead of them.
func vectorInput(v any, payloads []any) (any, bool) {
	if o, isObj := v.(*jsonv.Object); isObj {
		if k, ref := o.Get("$runtimeTurnOf"); ref {
			p := payloads[int(k.(float64))].(*jsonv.Object)
			v, _ = p.Get("runtimeTurn")
			if id, same := v.(*jsonv.Object).Get("$displayTurnAs"); same {
				dt, _ := p.Get("displayTurn")
				turn := jsonv.NewObject()
				dt.(*jsonv.Object).Range(func(key string, x any) bool {
					if key == "turnId" {
						x = id
					}
					turn.Set(key, x)
					return true
				})
				v = turn
			}
		}
	}
	return v, !strings.Contains(jsonv.Stringify(v), `"$long"`)
}

// expandRows puts the input blocks back into a vector's expected rows,
// which name them by index: the diff pi-forge prints.
func expandRows(want *jsonv.Object, before, after any) *jsonv.Object {
	blocksOf := func(turn any) []any {
		b, _ := turn.(*jsonv.Object).Get("blocks")
		return b.([]any)
	}
	out := jsonv.NewObject()
	want.Range(func(k string, x any) bool {
		if k == "blocks" {
			var rows []any
			for _, rv := range x.([]any) {
				row := jsonv.NewObject()
				rv.(*jsonv.Object).Range(func(rk string, y any) bool {
					switch rk {
					case "before":
						y = blocksOf(before)[int(y.(float64))]
					case "after":
						y = blocksOf(after)[int(y.(float64))]
					}
					row.Set(rk, y)
					return true
				})
				rows = append(rows, row)
			}
			x = rows
		}
		out.Set(k, x)
		return true
	})
	return out
}

// TestPayloadDiffJSONVectors does the same with the project's own vectors
// generated from pi-forge's code (engine/turndiff/testdata).
func TestPayloadDiffJSONVectors(t *testing.T) {
	raw, err := os.ReadFile("../engine/turndiff/testdata/piforge-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonv.Parse(raw)
	pv, _ := v.(*jsonv.Object).Get("payloads")
	dv, _ := v.(*jsonv.Object).Get("diffs")
	dir := t.TempDir()
	n := 0
	for i, item := range dv.([]any) {
		o := item.(*jsonv.Object)
		bv, _ := o.Get("before")
		av, _ := o.Get("after")
		wv, _ := o.Get("diff")
		before, okB := vectorInput(bv, pv.([]any))
		after, okA := vectorInput(av, pv.([]any))
		if before == nil || !okB || !okA || i%3 != 0 {
			continue
		}
		want := expandRows(wv.(*jsonv.Object), before, after)
		a := writeJSON(t, dir, "a.json", before)
		b := writeJSON(t, dir, "b.json", after)
		code, out, errOut := runPayload(t, "payload", "diff", a, b, "--json")
		// A cause (the model or tools field changed) is forgebench's own
		// addition after pi-forge's keys.
		if got, err := jsonv.Parse([]byte(out)); err == nil {
			got.(*jsonv.Object).Delete("cause")
			out = jsonv.Stringify(got) + "\n"
		}
		if code != exitOK || out != jsonv.Stringify(want)+"\n" {
			t.Fatalf("vector %d: exit %d %s\n got %s\nwant %s", i, code, errOut, out, jsonv.Stringify(want))
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d vectors checked", n)
	}
}

func TestPayloadDiffSessionCause(t *testing.T) {
	a, b := "session:"+demoSession+"#fa181dba", "session:"+demoSession+"#c0430f5a"
	code, out, errOut := runPayload(t, "payload", "diff", a, b, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for _, k := range []string{"blocks", "prefixTokens", "prefixRatio", "deltaTokens", "summary", "cause"} {
		if _, ok := got[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	if len(got) != 6 {
		t.Errorf("top-level keys %v", keys)
	}
	if !strings.Contains(string(got["cause"]), `"capabilityId":"project:write-access"`) {
		t.Errorf("cause %s", got["cause"])
	}
	// Human output: the rule, the cause, recorded cache use and the line diff.
	code, out, _ = runPayload(t, "payload", "diff", a, b)
	for _, want := range []string{"cache boundary · ~674 tokens cached", "cause: capability \"Write access\" activated", "B recorded: cache read 6,400", "── ~ request-tools ──", "+      \"name\": \"edit\","} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("human diff lacks %q:\n%s", want, out)
		}
	}
}

func TestPayloadDiffGates(t *testing.T) {
	a, b := "session:"+demoSession+"#fa181dba", "session:"+demoSession+"#c0430f5a"
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{a, a, "--fail-on-change"}, exitOK, ""},
		{[]string{a, b, "--fail-on-change"}, exitFailed, "4 block(s) changed (--fail-on-change)"},
		{[]string{a, b, "--max-token-growth", "659"}, exitOK, ""},
		{[]string{a, b, "--max-token-growth", "658"}, exitFailed, "grew by 659 tokens, more than 658"},
		{[]string{b, a, "--max-token-growth", "0"}, exitOK, ""},
		{[]string{a, b, "--max-token-growth=-1"}, exitUsage, "0 or more"},
	} {
		code, out, errOut := runPayload(t, append([]string{"payload", "diff", "--json"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d (%s), want %d %q", tc.args[2:], code, errOut, tc.code, tc.msg)
		}
		if tc.code != exitUsage && !strings.HasPrefix(out, `{"blocks":`) {
			t.Errorf("%v: the diff is printed whatever the gates say: %.40s", tc.args[2:], out)
		}
	}
}

func TestPayloadRefErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		ref  string
		code int
		msg  string
	}{
		{"", exitUsage, "empty"},
		{"session:" + demoSession + "#nope", exitUsage, `no entry "nope"`},
		{filepath.Join(dir, "missing.json"), exitUsage, "no such file"},
		{"session:" + filepath.Join(dir, "missing.jsonl"), exitUsage, "no such file"},
		{"preset:no-such-preset@" + demoSession + "#c0430f5a", exitUsage, "no-such-preset"},
		{dir, exitUsage, "is a directory"},
		// A selector written as a path names a file, not a library id.
		{"preset:" + filepath.Join(dir, "missing.json") + "@" + demoSession + "#c0430f5a", exitUsage, "missing.json: no such file"},
	} {
		code, _, errOut := runPayload(t, "payload", "show", tc.ref)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%q: exit %d %q, want %d %q", tc.ref, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestPayloadShowBadTurn: a file shaped like a turn snapshot that is not
// one is read as a saved payload, and the human output says why.
func TestPayloadShowBadTurn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "turn.json")
	if err := os.WriteFile(path, []byte(`{"turnId":"t","blocks":[{"key":1}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runPayload(t, "payload", "show", path)
	if code != exitOK || !strings.Contains(out, "shaped like a turn snapshot but blocks[0].key must be a string: read as a saved payload") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestPayloadShowTruncated(t *testing.T) {
	req := jsonv.NewObject()
	req.Set("model", "m")
	req.Set("apiKey", "sk-secret")
	var msgs []any
	for i := 0; i < 25; i++ {
		m := jsonv.NewObject()
		m.Set("role", []string{"user", "assistant"}[i%2])
		m.Set("content", strings.Repeat("text of message "+jsonv.FormatNumber(float64(i))+" ", 600))
		msgs = append(msgs, m)
	}
	req.Set("messages", msgs)
	f := turndiff.FormatPayload(req)
	path := filepath.Join(t.TempDir(), "cut.json")
	if err := os.WriteFile(path, []byte(f.Text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runPayload(t, "payload", "show", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"cut by pi-forge after 200,000 characters", "recovered whole: model, apiKey", "messages recovered whole: ", "cut: message ", "secret value redacted at apiKey", "recovered blocks"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
	code, out, _ = runPayload(t, "payload", "show", path, "--json")
	var got struct {
		Turn struct{ Blocks []struct{ Key string } }
		File struct {
			Valid    bool
			Recovery struct {
				TruncationNote bool
				Messages       int
				CutMessage     struct{ Index int }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("%v %d", err, code)
	}
	if got.File.Valid || !got.File.Recovery.TruncationNote || len(got.Turn.Blocks) != 1 || got.Turn.Blocks[0].Key != "payload-text" ||
		got.File.Recovery.CutMessage.Index != got.File.Recovery.Messages {
		t.Errorf("%+v", got)
	}
}

func TestSessionStatsCache(t *testing.T) {
	code, out, errOut := runPayload(t, "session", "stats", demoSession, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"scope", "leafId", "entries", "messages", "toolCalls", "tokens", "cost", "costRecomputed", "costUnpriced", "byModel", "contextUsage", "cache"} {
		if _, ok := got[k]; !ok {
			t.Errorf("stats JSON lacks %q", k)
		}
	}
	if !strings.Contains(string(got["cache"]), `"drops":[{"entryId":"d49fd546","previousEntryId":"cbfd55bd","lostTokens":6850,"predictedPrefixTokens":3,"predictedBreak":true,"cause":{"kind":"model"`) {
		t.Errorf("cache %s", got["cache"])
	}
	code, out, _ = runPayload(t, "session", "stats", demoSession)
	if code != exitOK || !strings.Contains(out, "prompt cache\n  branch   read 64,680") || !strings.Contains(out, "drop at d49fd546") {
		t.Errorf("text:\n%s", out)
	}
	code, out, _ = runPayload(t, "session", "stats", demoSession, "--predict", "0")
	if code != exitOK || strings.Contains(out, "drop at d49fd546") || !strings.Contains(out, "(1 earlier drop(s) not predicted: --predict=-1 predicts every drop)") {
		t.Errorf("--predict 0:\n%s", out)
	}
	if code, _, errOut = runPayload(t, "session", "stats", demoSession, "--predict=-2"); code != exitUsage || !strings.Contains(errOut, "--predict") {
		t.Errorf("--predict -2: exit %d %s", code, errOut)
	}
}

// TestPayloadShowPiForgeRequest: in the demo workspace a session reference
// is the request pi-forge sent — the Preset in force compiled, the
// capability updates in place — and says what it inferred.
func TestPayloadShowPiForgeRequest(t *testing.T) {
	args, layout := demoArgs(t)
	ref := "session:" + filepath.Join(layout.SessionDir, filepath.Base(demoSession)) + "#c0430f5a"
	code, out, errOut := runCLI(t, in(args, "payload", "show", ref, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Request struct {
			Preset   string
			Inferred []string
			Payload  struct {
				System   string
				Messages []struct{ Role, Content any }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	q := got.Request
	if q.Preset != "project:guarded-worker" || !strings.HasPrefix(q.Payload.System, "You are a careful engineer on the billing team.") {
		t.Errorf("preset %q system %.60q", q.Preset, q.Payload.System)
	}
	last := q.Payload.Messages[len(q.Payload.Messages)-1]
	if c, _ := last.Content.(string); !strings.HasPrefix(c, "[pi-forge capability update]") {
		t.Errorf("last message %v", last)
	}
	if len(q.Inferred) == 0 {
		t.Error("no inferred notes")
	}
	// The rows name what pi-forge inserted.
	a := strings.Replace(ref, "#c0430f5a", "#fa181dba", 1)
	code, out, _ = runCLI(t, in(args, "payload", "diff", a, ref, "--blocks-only")...)
	if code != exitOK || !strings.Contains(out, `· capability update "Write access" (user message)`) || strings.Contains(out, "  \n") {
		t.Errorf("diff rows:\n%s", out)
	}
	code, out, _ = runCLI(t, in(args, "payload", "show", ref)...)
	if code != exitOK || !strings.Contains(out, "pi-forge: Preset project:guarded-worker compiled this request") || !strings.Contains(out, "inferred: ") {
		t.Errorf("human show:\n%.600s", out)
	}
	// The session may be named by its id prefix, as the session commands take it.
	code, byID, errOut := runCLI(t, in(args, "payload", "show", "session:01a21c48#c0430f5a", "--json")...)
	if code != exitOK || !strings.Contains(byID, `"preset":"project:guarded-worker"`) {
		t.Errorf("by id: exit %d %s", code, errOut)
	}
	if code, _, errOut = runCLI(t, in(args, "payload", "show", "session:zzz#x")...); code != exitUsage || !strings.Contains(errOut, "no such session") {
		t.Errorf("unknown id: exit %d %s", code, errOut)
	}
}

// TestPayloadDiffSavedPayloads: the demo's two captures; the last user
// message lost its cache marker, which only its wire JSON shows.
func TestPayloadDiffSavedPayloads(t *testing.T) {
	args, layout := demoArgs(t)
	dir := filepath.Join(layout.ProjectDir, ".pi", "forge", "payloads")
	code, out, errOut := runCLI(t, in(args, "payload", "diff", filepath.Join(dir, "01-before-write-access.json"), filepath.Join(dir, "02-after-write-access.json"))...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"same text; its request fields differ (the JSON sent):", `-        "cache_control": {`, "── ~ request-tools ──"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
}

// TestPayloadSpecialFileRefused: a device or FIFO given as a payload FILE
// is refused with exit 4, as the session commands refuse one — never read,
// never reported as a failed check (exit 1).
func TestPayloadSpecialFileRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "payload.fifo")
	hostile.MakeSpecial(t, fifo, "fifo")
	for _, args := range [][]string{
		{"payload", "show", fifo},
		{"payload", "show", "/dev/null"},
		{"payload", "diff", fifo, fifo, "--json"},
		// A preset given as a file: opening the FIFO used to block for ever.
		{"payload", "show", "preset:" + fifo + "@" + demoSession + "#c0430f5a"},
	} {
		type result struct {
			code        int
			out, errOut string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errOut := runPayload(t, args...)
			done <- result{code, out, errOut}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still running after 10s (blocked on the FIFO)", args)
		}
		code, out, errOut := r.code, r.out, r.errOut
		if code != exitRefused || !strings.Contains(errOut, "not a regular file") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and \"not a regular file\"", args, code, out, errOut, exitRefused)
		}
	}
}
