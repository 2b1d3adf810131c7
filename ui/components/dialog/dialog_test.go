package dialog

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/uitest"
)

// ask is a question answered by y; it counts the keys it saw.
type ask struct {
	name string
	yes  key.Binding
	seen int
}

func (a *ask) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil, nil
	}
	a.seen++
	if key.Matches(k, a.yes) {
		return true, "yes to " + a.name, nil
	}
	return false, nil, nil
}
func (a *ask) View(width, height int) string { return "[" + a.name + "]" }
func (a *ask) ShortHelp() []key.Binding      { return []key.Binding{a.yes} }

// noted is a question that reports its dismissal.
type noted struct{ ask }

func (n *noted) Dismissed() any { return "dismissed " + n.name }

func newAsk(name string) *ask {
	return &ask{name: name, yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes "+name))}
}

func esc() key.Binding { return key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")) }

// TestStackTopTakesKeysAndHelp: only the top dialog sees keys and gives
// the help; answering it pops it and uncovers the one below.
func TestStackTopTakesKeysAndHelp(t *testing.T) {
	s := Stack{Dismiss: esc()}
	if s.Open() || s.CapturesInput() || s.ShortHelp() != nil {
		t.Fatal("an empty stack is open, captures input or has help")
	}
	if ans, cmd := s.Update(uitest.Key("y")); ans != nil || cmd != nil {
		t.Fatalf("an empty stack answered %v", ans)
	}
	lower, upper := newAsk("lower"), newAsk("upper")
	s.Push(lower)
	s.Push(upper)
	if !s.CapturesInput() || s.Len() != 2 {
		t.Fatalf("open %v, len %d", s.CapturesInput(), s.Len())
	}
	if got := s.ShortHelp()[0].Help().Desc; got != "yes upper" {
		t.Fatalf("help is the lower dialog's: %q", got)
	}
	if ans, _ := s.Update(uitest.Key("x")); ans != nil || upper.seen != 1 || lower.seen != 0 {
		t.Fatalf("answer %v, upper saw %d, lower saw %d", ans, upper.seen, lower.seen)
	}
	if ans, _ := s.Update(uitest.Key("y")); ans != "yes to upper" {
		t.Fatalf("answer %v", ans)
	}
	if s.Top() != Dialog(lower) || s.ShortHelp()[0].Help().Desc != "yes lower" {
		t.Fatal("answering the top did not uncover the one below")
	}
}

// TestStackDismissPops: esc pops the top dialog without handing it the
// key; a Dismisser answers, a plain dialog does not.
func TestStackDismissPops(t *testing.T) {
	s := Stack{Dismiss: esc()}
	plain := newAsk("plain")
	withNote := &noted{*newAsk("noted")}
	s.Push(plain)
	s.Push(withNote)
	if ans, _ := s.Update(uitest.Key("esc")); ans != "dismissed noted" || withNote.seen != 0 {
		t.Fatalf("answer %v, the dialog saw %d keys", ans, withNote.seen)
	}
	if ans, _ := s.Update(uitest.Key("esc")); ans != nil || plain.seen != 0 || s.Open() {
		t.Fatalf("answer %v, saw %d, still open %v", ans, plain.seen, s.Open())
	}
}

// TestStackReplaceAndClear: Replace swaps the top only; Clear closes all.
func TestStackReplaceAndClear(t *testing.T) {
	var s Stack
	a, b, c := newAsk("a"), newAsk("b"), newAsk("c")
	s.Replace(a) // nothing open: opens it
	s.Push(b)
	s.Replace(c)
	if s.Len() != 2 || s.Top() != Dialog(c) {
		t.Fatalf("len %d, top %v", s.Len(), s.Top())
	}
	if s.Pop() != Dialog(c) || s.Top() != Dialog(a) {
		t.Fatal("replace dropped the wrong dialog")
	}
	s.Clear()
	if s.Open() || s.Pop() != nil {
		t.Fatal("clear left a dialog open")
	}
}

// pusher opens another dialog from its answer's handling: the stack pops
// it first, so the new one is not popped with it.
type pusher struct {
	ask
	s *Stack
}

func (p *pusher) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	p.s.Push(newAsk("next"))
	return true, nil, nil
}

// TestStackDoneDialogThatPushedStaysOpen: a dialog that is done is
// closed, and a dialog it pushed while it handled the key stays open.
func TestStackDoneDialogThatPushedStaysOpen(t *testing.T) {
	s := Stack{Dismiss: esc()}
	p := &pusher{ask: *newAsk("pusher"), s: &s}
	s.Push(p)
	s.Update(uitest.Key("y"))
	if s.Len() != 1 || s.Top() == Dialog(p) {
		t.Fatalf("len %d: the done dialog stayed, or the one it pushed was popped", s.Len())
	}
}

// TestStackViewOverlaysTop draws the top dialog over the screen, and the
// screen alone when nothing is open.
func TestStackViewOverlaysTop(t *testing.T) {
	var s Stack
	screen := strings.Repeat(strings.Repeat(".", 20)+"\n", 4) + strings.Repeat(".", 20)
	if s.View(screen, 20, 5) != screen {
		t.Fatal("an empty stack changed the screen")
	}
	s.Push(newAsk("lower"))
	s.Push(newAsk("upper"))
	out := s.View(screen, 20, 5)
	if !strings.Contains(out, "[upper]") || strings.Contains(out, "[lower]") {
		t.Fatalf("not the top dialog:\n%s", out)
	}
}
