//go:build unix

package regfile

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// A FIFO without a writer and a symbolic link to /dev/zero are refused at
// once, without being opened (an open of the FIFO would block, a read of
// /dev/zero would never end).
func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	want := map[string]string{"fifo": "named pipe (FIFO)", "zero": "character device"}
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), "models.json")
		hostile.MakeSpecial(t, path, kind)
		var err error
		hostile.Within(t, "Read of a "+kind, func() { _, err = Read(path, 1<<20) })
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != want[kind] {
			t.Errorf("Read(%s) = %v, want a %s refusal", kind, err, want[kind])
		}
	}
}
