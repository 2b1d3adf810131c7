package stats

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func TestRoundSum(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0.15858399999999997, "0.158584"},
		{0.1 + 0.2, "0.3"},
		{0.017984999999999998, "0.017985"},
		{3.4509999999999996, "3.451"},
		{1e-7 * 3, "3e-7"},
		{123456789.123456789, "123456789.123"},
		{0, "0"},
	} {
		if got := jsonv.FormatNumber(RoundSum(c.in)); got != c.want {
			t.Errorf("RoundSum(%v) prints %s, want %s", c.in, got, c.want)
		}
	}
}
