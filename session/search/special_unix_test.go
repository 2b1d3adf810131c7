//go:build unix

package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/regfile"
	"github.com/forgebench/forgebench/test/hostile"
)

// Every file a search opens was found by listing a directory, so it may
// have been swapped for a FIFO (an open for reading would wait for a
// writer for ever) or a link to /dev/zero since: the scan of its parts,
// the look at its first line, the pass that places hits on branches and
// the descriptor read of an agent transcript all refuse it at once.

// swapScope is a project with one session of several parts (PartBytes
// below) holding hits, and a pi-subagent tree with an agent transcript no
// state.json claims.
func swapScope(t *testing.T) (testScope, string, string) {
	sc := newScope(t)
	lines := []string{headerLine("root-id")}
	for i := 0; i < 200; i++ {
		lines = append(lines, userLine(fmt.Sprintf("u%03d", i), "", i, "an okapi grazing, line "+fmt.Sprint(i)))
	}
	root := writeFile(t, filepath.Join(sc.dir, "2026_root-id.jsonl"), t0, lines...)
	agent := writeFile(t, filepath.Join(sc.dir, "root-id.subagents", "tree-1", "sessions", "a.jsonl"), t0, headerLine("agent-a"),
		`{"type":"custom","customType":"pi-subagent/descriptor","data":{"version":5,"path":"/root/a"},"id":"d1","parentId":null,"timestamp":"`+ts(1)+`"}`,
		userLine("au1", "d1", 2, "okapi in the agent"))
	return sc, root, agent
}

func TestSearchNeverBlocksOnAFileSwappedAfterListing(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		for _, which := range []string{"root", "agent"} {
			t.Run(kind+"/"+which, func(t *testing.T) {
				sc, root, agent := swapScope(t)
				m, _ := Compile(Query{Text: "okapi"})
				srcs, err := ListSources(sc.scope(true))
				if err != nil || len(srcs) != 2 {
					t.Fatalf("sources %v, %v", srcs, err)
				}
				path := map[string]string{"root": root, "agent": agent}[which]
				hostile.MakeSpecial(t, path, kind)
				var st Stats
				var hits []Hit
				hostile.Within(t, "search after a swap", func() {
					// Small parts: the first line's look and every part
					// open the file on their own.
					st, err = NewSearcher().Search(context.Background(), m, srcs, Options{PartBytes: 2048, Workers: 2}, func(r FileResult) bool {
						hits = append(hits, r.Hits...)
						return true
					})
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(st.Problems) != 1 || !strings.Contains(st.Problems[0], "not a regular file") {
					t.Errorf("problems %q, want the swapped file named as not regular", st.Problems)
				}
				for _, h := range hits {
					if h.File == path {
						t.Errorf("hit %s in the swapped file", h.EntryID)
					}
				}
			})
		}
	}
}

// The pass that places hits opens the file again after the scan: a swap
// in between is refused there too.
func TestTreePassRefusesASwappedFile(t *testing.T) {
	for _, kind := range hostile.SpecialKinds {
		_, root, _ := swapScope(t)
		fi, err := os.Stat(root)
		if err != nil {
			t.Fatal(err)
		}
		hostile.MakeSpecial(t, root, kind)
		s := NewSearcher()
		sc := newScanner(0, 0, &s.big)
		hostile.Within(t, "tree pass over a "+kind, func() {
			_, err = s.readTree(context.Background(), sc, Source{Path: root, Size: fi.Size()}, nil, false)
		})
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("tree pass over a %s: %v", kind, err)
		}
	}
}

// A swapper racing with searches (the file replaced by a FIFO and back,
// 40 times): no search blocks, and each either reads the file or names it
// as not regular.
func TestSearchRacingASwapperNeverBlocks(t *testing.T) {
	sc, root, _ := swapScope(t)
	m, _ := Compile(Query{Text: "okapi"})
	srcs, err := ListSources(sc.scope(false))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	regular, fifo := filepath.Join(dir, "regular"), filepath.Join(dir, "fifo")
	if err := os.Link(root, regular); err != nil {
		t.Fatal(err)
	}
	hostile.MakeSpecial(t, fifo, "fifo")
	hostile.Within(t, "40 searches racing with swaps", func() {
		_, errs := hostile.Race(80, func(i int) error {
			if i%2 == 0 {
				src := regular
				if i%4 == 0 {
					src = fifo
				}
				tmp := filepath.Join(dir, fmt.Sprint("tmp", i))
				if err := os.Link(src, tmp); err != nil {
					return err
				}
				return os.Rename(tmp, root)
			}
			st, err := NewSearcher().Search(context.Background(), m, srcs, Options{PartBytes: 2048, NoCache: true}, func(FileResult) bool { return true })
			if err != nil {
				return err
			}
			for _, p := range st.Problems {
				if !strings.Contains(p, "not a regular file") {
					return errors.New(p)
				}
			}
			return nil
		})
		for _, err := range errs {
			t.Error(err)
		}
	})
}
