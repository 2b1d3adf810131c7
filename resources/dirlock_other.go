//go:build !unix

package resources

// lockDir takes no lock on this platform: writes keep their revision
// checks, without the serialisation between concurrent forgebench writers
// that unix gets.
func lockDir(dir string) (unlock func(), err error) { return func() {}, nil }
