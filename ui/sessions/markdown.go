package sessions

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"

	"github.com/forgebench/forgebench/themes"
)

// markdownRenderers keeps one glamour renderer per (theme, width): building
// a renderer is far more expensive than rendering with it. Renderers are
// not safe for concurrent use, so rendering holds the lock.
type markdownRenderers struct {
	mu sync.Mutex
	by map[mdKey]*glamour.TermRenderer
}

type mdKey struct {
	palette string
	dark    bool
	width   int
}

// render returns text rendered as markdown wrapped to width, or the text
// itself (wrapped by the caller) when glamour fails.
func (r *markdownRenderers) render(st themes.Styles, width int, text string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by == nil {
		r.by = map[mdKey]*glamour.TermRenderer{}
	}
	k := mdKey{st.Palette.Name, st.IsDark, width}
	tr, ok := r.by[k]
	if !ok {
		var err error
		tr, err = glamour.NewTermRenderer(glamour.WithStyles(st.Markdown()), glamour.WithWordWrap(width))
		if err != nil {
			return "", false
		}
		r.by[k] = tr
	}
	out, err := tr.Render(text)
	if err != nil {
		return "", false
	}
	return strings.Trim(out, "\n"), true
}
