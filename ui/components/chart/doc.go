// Package chart draws small terminal charts as strings: horizontal bars
// and stacked bars, stacked columns, a sparkline row, a row of marks under
// columns and a span (a bar from a start to an end on a time axis).
//
// Every function is pure: the data, a width (and height), the styles in,
// lines out, each exactly as wide as asked and never wider, so a chart
// draws only what fits. Colours come from the theme (themes.Styles, through
// the series a caller builds with TokenSeries or its own styles); every
// series also has its own rune (█ ▓ ▒ ░ …), so under NO_COLOR the parts of
// a stack are told apart by shape, not by colour.
//
// The bars are drawn with lipgloss rather than a chart library:
// NimbleMarkets/ntcharts v2 is on the Charm v2 line but its module replaces
// bubbletea with a fork awaiting upstream merges and pulls an image stack
// (go-analyze/charts, golang.org/x/image, pixterm, go-booba) for charts
// that are stateful bubbletea models; the charts here are a few runes per
// cell and a test pins each one.
package chart
