// Package compare holds the offline comparisons over sessions that
// forgebench already reads: two branches after their fork point (Branches,
// for `session diff`) and what fills the request at an entry
// (Composition, for `session composition` and `preset preview --without`).
//
// Every computation is a pure function over values session and
// session/replay produced (a *session.Session, a rebuilt request): no file
// is opened here except by the small helpers that say so (Related), so a
// panel can call them from a tea.Cmd with what it already holds.
package compare
