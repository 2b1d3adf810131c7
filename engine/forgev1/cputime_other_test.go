//go:build !unix

package forgev1

import "time"

// processCPU is not measured here (0): benchmarks report wall time only.
func processCPU() time.Duration { return 0 }
