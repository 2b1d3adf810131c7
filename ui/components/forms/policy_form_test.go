package forms

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
)

const policyDraft = `{"schemaVersion":2,"id":"p","items":[],
 "tools":{"allow":["read","bash*","nothing_here"],"initial":["read","write"]},
 "skills":{"deny":["secret-*"]}}`

var knownTools = []string{"read", "write", "edit", "bash", "bash_bg", "ls", "grep"}

func policyContext(t testing.TB, src string) Context {
	ctx := testContext(t, src)
	ctx.KnownTools = knownTools
	return ctx
}

func TestPolicyGolden(t *testing.T) {
	goldenForms(t, map[string]func(*testing.T) Form{
		"policy_tools":  func(t *testing.T) Form { return NewPolicy(policyContext(t, policyDraft), "tools") },
		"policy_skills": func(t *testing.T) Form { return NewPolicy(policyContext(t, policyDraft), "skills") },
	})
}

func TestPolicyMatchPreview(t *testing.T) {
	v := sizedView(NewPolicy(policyContext(t, policyDraft), "tools"), 160, 48)
	for _, want := range []string{
		"allow selects 3 of 7",
		"[x] read               ← read",
		"[x] bash               ← bash*",
		"[x] bash_bg            ← bash*",
		"[ ] write",
		"3. nothing_here   (matches no known tool)",
		"2. bash*   (2 known)",
		"write  ⚠ blocked by the allow/deny policy",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	deny := sizedView(NewPolicy(policyContext(t, `{"tools":{"deny":["*e*"]}}`), "tools"), 160, 48)
	if !strings.Contains(deny, "deny removes 4 of 7, 3 remain") {
		t.Errorf("deny preview wrong:\n%s", deny)
	}
	if !strings.Contains(deny, "[x] grep               ✗ denied by *e*") || !strings.Contains(deny, "[ ] ls  ") {
		t.Errorf("deny marks wrong:\n%s", deny)
	}
}

func TestPolicyEdits(t *testing.T) {
	ctx := policyContext(t, policyDraft)
	before := jsonv.Stringify(ctx.Draft)
	rowOf := func(f Form, text string) int {
		t.Helper()
		pf := f.(*policyForm)
		for i := range pf.rows {
			g := sizedView(NewPolicy(ctx, "tools", WithCursor(Cursor{Row: i})), 160, 48)
			for _, l := range strings.Split(ansi.Strip(g), "\n") {
				if strings.HasPrefix(l, "▸ ") && strings.Contains(l, text) {
					return i
				}
			}
		}
		t.Fatalf("no row shows %q", text)
		return -1
	}
	f := NewPolicy(ctx, "tools")

	// mode cycles allow → deny, moving the patterns and keeping initial.
	d := drive(t, f).press("space")
	assertEdit(t, d.onlyEdit(), Path{"tools"}, `{"deny":["read","bash*","nothing_here"],"initial":["read","write"]}`, "tools.mode")

	// the picker adds the exact name of an unmatched tool …
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: rowOf(f, "[ ] write")}))).press("space")
	assertEdit(t, d.onlyEdit(), Path{"tools", "allow"}, `["read","bash*","nothing_here","write"]`, "tools.allow")
	// … and removes a listed exact name.
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: rowOf(f, "[x] read")}))).press("space")
	assertEdit(t, d.onlyEdit(), Path{"tools", "allow"}, `["bash*","nothing_here"]`, "tools.allow")

	// edit, reorder and delete a pattern.
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: 3}))).press("enter", "ctrl+u").typeText("gr*").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"tools", "allow"}, `["read","bash*","gr*"]`, "tools.allow")
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: 3}))).press("K")
	assertEdit(t, d.onlyEdit(), Path{"tools", "allow"}, `["read","nothing_here","bash*"]`, "tools.allow")
	if CursorOf(d.Model).Row != 2 {
		t.Errorf("the cursor follows the moved pattern, got row %d", CursorOf(d.Model).Row)
	}
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: 1}))).press("x")
	assertEdit(t, d.onlyEdit(), Path{"tools", "allow"}, `["bash*","nothing_here"]`, "tools.allow")

	// add a pattern: empty is refused, then "ls" is appended.
	d = drive(t, f).press("a", "enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 80, 24), "cannot be empty") {
		t.Fatalf("empty pattern accepted")
	}
	d.typeText("ls").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"tools", "allow"}, `["read","bash*","nothing_here","ls"]`, "tools.allow")

	// initial: wildcards are refused, a concrete name is appended.
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: rowOf(f, "initial   set")}))).press("a").typeText("ba*").press("enter")
	if len(d.edits) != 0 || !strings.Contains(sizedView(d.Model, 160, 48), "not a concrete tool name") {
		t.Fatalf("wildcard initial accepted")
	}
	d.press("ctrl+u").typeText("ls").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"tools", "initial"}, `["read","write","ls"]`, "tools.initial")
	// initial can be omitted again.
	d = drive(t, NewPolicy(ctx, "tools", WithCursor(Cursor{Row: rowOf(f, "initial   set")}))).press("space")
	if e := d.onlyEdit(); !e.Delete || jsonv.Stringify(toAnyPath(e.Path)) != `["tools","initial"]` {
		t.Fatalf("omit initial = %+v", e)
	}

	// skills without a policy object: a first pattern builds it.
	empty := policyContext(t, `{"items":[]}`)
	d = drive(t, NewPolicy(empty, "skills")).press("a").typeText("docs-*").press("enter")
	assertEdit(t, d.onlyEdit(), Path{"skills"}, `{"allow":["docs-*"]}`, "skills.allow")

	if after := jsonv.Stringify(ctx.Draft); after != before {
		t.Fatalf("form mutated the draft")
	}
}
