//go:build !linux

package resources

// maxNameBytes is the longest file name accepted: 255 bytes on the file
// systems of macOS and Windows alike (Windows counts UTF-16 units; ids are
// ASCII, so bytes and units agree).
func maxNameBytes(string) int { return defaultMaxNameBytes }
