package keymap

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/forgebench/forgebench/i18n"
)

// ConflictKind says what a binding's key collides with.
type ConflictKind int

const (
	// SharedKey: two bindings of one scope use the same key.
	SharedKey ConflictKind = iota
	// TypesText: a command binding of a view with a focused text input
	// uses a key that types a character there.
	TypesText
	// QuitKeyTaken: a binding uses ctrl+c, which always quits.
	QuitKeyTaken
)

// Conflict is a key two things want in one scope.
type Conflict struct {
	Kind ConflictKind
	// Key is the key they share, as written in the bindings.
	Key string
	// A and B are the binding names (B is empty unless Kind is
	// SharedKey), in the order the scope lists them.
	A, B string
	// Scope names the first view where they meet; Others counts the
	// further views with the same conflict.
	Scope  string
	Others int
}

// Quote shows a binding name or a key for a message: quoted, with
// control, format and non-printable characters escaped (strconv.Quote),
// so a name made of escape sequences reads as what it is.
func Quote(s string) string { return strconv.Quote(s) }

// String says what collides and where, names quoted and escaped, in the
// current language (the scope's name is translated too).
func (c Conflict) String() string {
	a, b, k, where := Quote(c.A), Quote(c.B), Quote(c.Key), i18n.T(c.Scope)
	switch {
	case c.Kind == QuitKeyTaken:
		return i18n.T("%s uses %s, which always quits", a, k)
	case c.Kind == TypesText && c.Others > 0:
		return i18n.T("%s uses %s, which types text in %s (and %d other view(s))", a, k, where, c.Others)
	case c.Kind == TypesText:
		return i18n.T("%s uses %s, which types text in %s", a, k, where)
	case contains(Root, c.A) && contains(Root, c.B): // the root reads both before any panel
		return i18n.T("%s and %s both use %s in every panel", a, b, k)
	case c.Others > 0:
		return i18n.T("%s and %s both use %s in %s (and %d other view(s))", a, b, k, where, c.Others)
	}
	return i18n.T("%s and %s both use %s in %s", a, b, k, where)
}

// TypesTextKey reports whether key k, pressed in a text input, types a
// character: a single printable character, or space.
func TypesTextKey(k string) bool {
	if k == "space" {
		return true
	}
	r, size := utf8.DecodeRuneInString(k)
	return size == len(k) && r != utf8.RuneError && unicode.IsPrint(r) && !unicode.IsSpace(r)
}

// Conflicts checks s against the scope model (Scopes): every key two
// bindings share in one scope (unless they do the same thing there, or
// the defaults share it on purpose: Scope.Same, Scope.Yield), every key
// that types text taken by a binding of a text input's scope, and every
// binding but quit on ctrl+c. The default set has none.
func (s *Set) Conflicts() []Conflict {
	named := s.Named()
	type id struct {
		kind ConflictKind
		key  string
		a, b string
	}
	var out []Conflict
	index := map[id]int{}
	add := func(c Conflict) {
		k := id{kind: c.Kind, key: c.Key, a: c.A, b: c.B}
		if c.A > c.B && c.Kind == SharedKey {
			k.a, k.b = c.B, c.A
		}
		if i, ok := index[k]; ok {
			if c.Kind != QuitKeyTaken {
				out[i].Others++
			}
			return
		}
		index[k] = len(out)
		out = append(out, c)
	}
	for _, sc := range Scopes() {
		if sc.Name != "the quit question" {
			for _, name := range sc.Bindings {
				if name == "quit" || named[name] == nil {
					continue
				}
				for _, k := range named[name].Keys() {
					if k == QuitKey {
						add(Conflict{Kind: QuitKeyTaken, Key: k, A: name, Scope: sc.Name})
					}
				}
			}
		}
		users := map[string][]string{} // key → bindings, in scope order
		var order []string
		seen := map[string]bool{}
		for _, name := range sc.Bindings {
			b := named[name]
			if b == nil || seen[name] {
				continue
			}
			seen[name] = true
			for _, k := range uniqueKeys(b.Keys()) {
				if len(users[k]) == 0 {
					order = append(order, k)
				}
				users[k] = append(users[k], name)
				if sc.Text && TypesTextKey(k) {
					add(Conflict{Kind: TypesText, Key: k, A: name, Scope: sc.Name})
				}
			}
		}
		for _, k := range order {
			names := users[k]
			for i := 0; i < len(names); i++ {
				for j := i + 1; j < len(names); j++ {
					if sc.allows(names[i], names[j], k) {
						continue
					}
					add(Conflict{Kind: SharedKey, Key: k, A: names[i], B: names[j], Scope: sc.Name})
				}
			}
		}
	}
	return out
}

// allows reports whether a and b may share key k in the scope: they do
// the same thing here, or the defaults give k to one of them on purpose.
func (sc *Scope) allows(a, b, k string) bool {
	for _, group := range sc.Same {
		if contains(group, a) && contains(group, b) {
			return true
		}
	}
	for _, y := range sc.Yield {
		if y.Key == k && (y.First == a && y.Then == b || y.First == b && y.Then == a) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// uniqueKeys drops a key a binding lists twice.
func uniqueKeys(keys []string) []string {
	out := keys[:0:0]
	for _, k := range keys {
		if !contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
