package sessiondir

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	cases := map[string]string{
		"/home/dev/projects/demo-app": "--home-dev-projects-demo-app--",
		`C:\Users\me\x`:               "--C--Users-me-x--",
		`\server\share`:               "--server-share--",
		"/srv/a:b/c":                  "--srv-a-b-c--",
		`/srv/back\slash`:             "--srv-back-slash--",
		"/":                           "----",
		"//a":                         "---a--",
		"":                            "----",
	}
	for in, want := range cases {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzName(f *testing.F) {
	for _, seed := range []string{"/home/dev/projects/demo-app", "", "/", `C:\a\b`, "a:b", "//x//y", "\\"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cwd string) {
		got := Name(cwd)
		if !strings.HasPrefix(got, "--") || !strings.HasSuffix(got, "--") || len(got) < 4 {
			t.Fatalf("Name(%q) = %q is not wrapped in --", cwd, got)
		}
		if strings.ContainsAny(got, `/\:`) {
			t.Fatalf("Name(%q) = %q keeps a separator", cwd, got)
		}
	})
}
