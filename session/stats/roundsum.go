package stats

import (
	"math"
	"strconv"
)

// SumDigits is how many significant digits a printed sum keeps.
const SumDigits = 12

// RoundSum rounds a sum of money or token figures to SumDigits significant
// digits, so JSON prints it as people write it (0.158584, not the
// 0.15858399999999997 that adding binary fractions leaves). Twelve digits
// keep every digit a price list or a usage record carries and drop only
// the noise of the additions. Apply it once, where a sum is finished;
// values read from a file are printed as read, never rounded.
func RoundSum(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', SumDigits, 64), 64)
	if err != nil {
		return x
	}
	return r
}
