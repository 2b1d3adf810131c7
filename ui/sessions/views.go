package sessions

// detailViews holds the state of the detail pane's views beside the
// entry, the context and the stats: the skipped lines' scroll, the branch
// comparison (compareview.go) and the composition of a request
// (compositionview.go). Each view owns its part; Model keeps one field.
type detailViews struct {
	skippedOffset int
	compare       branchCompare
	composition   compositionView
}
