package resources

import (
	"strings"
	"testing"
)

// An import that cannot be read names the file once.
func TestReadImportFileNamesThePathOnce(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir, dir + "/missing.json"} {
		_, err := ReadImportFile(path)
		if err == nil || strings.Count(err.Error(), path) != 1 {
			t.Errorf("ReadImportFile(%s): %v", path, err)
		}
	}
}
