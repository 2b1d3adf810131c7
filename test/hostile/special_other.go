//go:build !unix

package hostile

import "testing"

// makeSpecialFiles makes nothing where FIFOs and /dev/zero do not exist.
func makeSpecialFiles(testing.TB, *Staged) {}
