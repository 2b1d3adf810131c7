//go:build linux

package session

// PiProbe says how FindPi looks for a running Pi on this system.
const PiProbe = "exact: /proc/*/cwd and /proc/*/cmdline"

// PiProbeExact is true where FindPi sees every process of the user.
const PiProbeExact = true

// FindPi lists the Pi processes whose working directory is project, from
// /proc (FindPiIn). Only the user's own processes can be inspected (all of
// them for root).
func FindPi(project string) ([]PiProcess, error) { return FindPiIn("/proc", project) }
