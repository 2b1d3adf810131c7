//go:build !unix && !windows

package flock

import "os"

// tryLock: this platform has no file locks; Lock's in-process part is
// all there is.
func tryLock(*os.File) (release func(), state lockState) { return nil, unsupported }
