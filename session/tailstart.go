package session

import (
	"fmt"
	"io"
)

// LastLinesOffset is where the last n non-blank lines of the file at path
// begin, for a tail that starts n entries back (`session tail -n N`): the
// file's size when n is 0, 0 when the file has n lines or fewer. An
// unfinished last line (no newline yet) is not counted: the tail prints it
// once it is complete. The file is read backwards in blocks, so the cost
// is the size of those lines, not of the file.
func LastLinesOffset(path string, n int) (int64, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return 0, fmt.Errorf("tail: %w", err)
	}
	defer f.Close()
	return lastLinesOffset(f, fi.Size(), n)
}

func lastLinesOffset(r io.ReaderAt, size int64, n int) (int64, error) {
	if n <= 0 {
		return size, nil
	}
	const block = 64 << 10
	buf := make([]byte, block)
	found := 0
	lineHasText := false
	// lineEnd is the newline closing the line being scanned; -1 until the
	// first newline from the end, so an unfinished last line is skipped.
	lineEnd := int64(-1)
	for pos := size; pos > 0; {
		start := max(pos-block, 0)
		chunk := buf[:pos-start]
		if _, err := r.ReadAt(chunk, start); err != nil && err != io.EOF {
			return 0, fmt.Errorf("tail: read: %w", err)
		}
		for i := len(chunk) - 1; i >= 0; i-- {
			c := chunk[i]
			at := start + int64(i)
			if c != '\n' {
				if lineEnd >= 0 && c != ' ' && c != '\t' && c != '\r' {
					lineHasText = true
				}
				continue
			}
			// A newline ends the line before it and starts the one after.
			if lineEnd >= 0 && lineHasText {
				found++
				if found == n {
					return at + 1, nil
				}
			}
			lineEnd, lineHasText = at, false
		}
		pos = start
	}
	return 0, nil
}
