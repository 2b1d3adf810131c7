package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// localLink matches the target of a Markdown image or link: ](target).
var localLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadmeLinksExist fails when the README links a picture or document of
// the repository that is not there (docs/gallery.sh makes the pictures).
func TestReadmeLinksExist(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatalf("reading README.md: %v", err)
	}
	pictures := 0
	for _, m := range localLink.FindAllStringSubmatch(string(readme), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		target, _, _ = strings.Cut(target, "#")
		if _, err := os.Stat(filepath.FromSlash(target)); err != nil {
			t.Errorf("README.md links %s, which is not in the repository: %v", m[1], err)
		}
		if strings.HasSuffix(target, ".svg") || strings.HasSuffix(target, ".png") {
			pictures++
		}
	}
	if pictures < 6 {
		t.Errorf("README.md shows %d pictures; want the five panels and the search (docs/gallery.sh)", pictures)
	}
}
