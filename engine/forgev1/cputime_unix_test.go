//go:build unix

package forgev1

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) this process has used so
// far, or 0 when it cannot be read. Benchmarks report it next to wall
// time because on a loaded machine wall time mostly measures the wait.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
