package forgev1

import "testing"

// BenchmarkRenderVectors: one op is parse+analyze+render of every public
// golden vector, stopping at the first error as the engine does.
func BenchmarkRenderVectors(b *testing.B) {
	vectors := loadVectors(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range vectors {
			v := &vectors[i]
			_, _ = renderWithLimit(v.template, v.env, nil, v.limit)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(vectors)), "ns/vector")
}
