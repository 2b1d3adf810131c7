package compare

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseRef(t *testing.T) {
	for _, c := range []struct {
		in          string
		file, entry string
	}{
		{"s.jsonl#abc", "s.jsonl", "abc"},
		{"s.jsonl", "s.jsonl", ""},
		{"#abc", "", "abc"},
		{"dir/a#b.jsonl#e1", "dir/a#b.jsonl", "e1"},
		{"0197d2a0#e1", "0197d2a0", "e1"},
	} {
		r, err := ParseRef(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if r.File != c.file || r.Entry != c.entry || r.String() != c.in {
			t.Errorf("%q: file %q entry %q (%q), want %q %q", c.in, r.File, r.Entry, r.String(), c.file, c.entry)
		}
	}
	for _, bad := range []string{"", "  ", "s.jsonl#", "#", "s\x1b[2J.jsonl#e"} {
		if _, err := ParseRef(bad); !errors.Is(err, ErrBadRef) {
			t.Errorf("%q: %v, want ErrBadRef", bad, err)
		}
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"s.jsonl#abc", "#abc", "a#b#c", "", "#", "x\u202e#y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRef(s)
		if err != nil {
			if !errors.Is(err, ErrBadRef) {
				t.Fatalf("%q: error %v does not wrap ErrBadRef", s, err)
			}
			return
		}
		if r.String() != s {
			t.Fatalf("%q: written back as %q", s, r.String())
		}
		if r.File == "" && r.Entry == "" {
			t.Fatalf("%q: neither file nor entry", s)
		}
		again, err := ParseRef(r.String())
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("%q: reparsed as %+v, %v", s, again, err)
		}
	})
}

func TestBashPaths(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want []string
	}{
		{"go test ./... > test.log 2>&1", []string{"test.log"}},
		{"echo hi >>notes.md; cat notes.md", []string{"notes.md"}},
		{"rm -rf build dist && mkdir -p out/bin", []string{"build", "dist", "out/bin"}},
		{"mv old.go new.go", []string{"old.go", "new.go"}},
		{"cp a.txt b.txt", []string{"b.txt"}},
		{"sed -i 's/a/b/' src/x.go src/y.go", []string{"src/x.go", "src/y.go"}},
		{"sed 's/a/b/' src/x.go", nil},
		{"echo $HOME > \"$OUT\"", nil},
		{"cat *.go | tee all.txt", []string{"all.txt"}},
		{"touch a{1,2}.txt", nil},
		{"FOO=1 /usr/bin/touch made.txt", []string{"made.txt"}},
		{"echo x > /dev/null", nil},
		{"make &>build.log &", []string{"build.log"}},
		{"ls -la", nil},
		{"git commit -m 'rm x'", nil},
	} {
		if got := BashPaths(c.cmd); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.cmd, got, c.want)
		}
	}
}

func FuzzBashPaths(f *testing.F) {
	for _, s := range []string{"rm -rf a b", "echo > x", "sed -i s/a/b/ f", "a && b || c; d | e &", ">", "2>&1", "mv"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		for _, p := range BashPaths(cmd) {
			if !plainPath(p) {
				t.Fatalf("%q: path %q is not plain", cmd, p)
			}
		}
	})
}
