package stats

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
)

// The digest (pi-subagent trees) refuses special files as the reader does:
// a FIFO or a link to /dev/zero among an agent tree's sessions must not
// block it.
func TestDigestRefusesSpecialFiles(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		path := filepath.Join(t.TempDir(), kind+".jsonl")
		hostile.MakeSpecial(t, path, kind)
		hostile.Within(t, "ReadDigest of a "+kind, func() {
			if _, err := ReadDigest(path, DigestOptions{}); !errors.Is(err, session.ErrNotRegular) {
				t.Errorf("ReadDigest(%s) = %v, want ErrNotRegular", kind, err)
			}
		})
	}
}
