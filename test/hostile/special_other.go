//go:build !unix

package hostile

import "testing"

// makeSpecialFiles makes nothing where FIFOs and /dev/zero do not exist.
func makeSpecialFiles(testing.TB, *Staged) {}

// MakeSpecial skips the test: there are no FIFOs or /dev/zero here.
func MakeSpecial(t testing.TB, path, kind string) {
	t.Helper()
	t.Skipf("no %s on this platform", kind)
}
