package hostile

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// StartFakePi starts a process that shows itself as Pi (`sleep` run with
// argv[0] "pi") in dir, killed when the test ends, and returns its pid
// once /proc shows it as Pi: until the child has exec'd, /proc shows the
// test binary's command line, and a running-Pi probe made then sees no
// Pi. It skips the test off Linux (the probe reads /proc) or without sleep.
func StartFakePi(t testing.TB, dir string) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the running-Pi check reads /proc (Linux)")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	pi := &exec.Cmd{Path: sleep, Args: []string{"pi", "60"}, Dir: dir}
	if err := pi.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pi.Process.Kill(); _ = pi.Wait() })
	cmdline := "/proc/" + strconv.Itoa(pi.Process.Pid) + "/cmdline"
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(cmdline); err == nil && strings.HasPrefix(string(b), "pi\x00") {
			return pi.Process.Pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake Pi (pid %d) never showed itself as pi in %s", pi.Process.Pid, cmdline)
		}
	}
}
