package common

import "strconv"

// FormatTokens renders a token count compactly (950, 12.3k, 1.2M; "" for
// none), as the timeline, the entry detail and the stats show it.
func FormatTokens(n int) string {
	switch {
	case n <= 0:
		return ""
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}
