package forgev1

import "testing"

// BenchmarkRenderVectors: one op is parse+analyze+render of every public
// golden vector, stopping at the first error as the engine does.
func BenchmarkRenderVectors(b *testing.B) {
	vectors := loadVectors(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		for i := range vectors {
			v := &vectors[i]
			_, _ = renderWithLimit(v.template, v.env, nil, v.limit)
		}
	}
	cpu = processCPU() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(vectors)), "ns/vector")
	if cpu > 0 {
		// CPU time of the whole process (the garbage collector's workers
		// included): what the loop costs however loaded the machine is.
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(vectors)), "cpu-ns/vector")
	}
}
