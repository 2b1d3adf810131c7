package common

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"

	"github.com/forgebench/forgebench/themes"
)

// markdownCacheMax bounds the rendered-output cache; it is cleared when
// full (renders are cheap to redo once the renderer exists).
const markdownCacheMax = 512

// Markdown renders markdown for every panel: one glamour renderer per
// theme and width (building one costs milliseconds, rendering with it
// far less) and a cache of outputs per theme, width and text. It is safe
// for concurrent use, so commands render off the UI goroutine; glamour
// renderers are not, so rendering holds the lock.
type Markdown struct {
	mu        sync.Mutex
	renderers map[markdownKey]*glamour.TermRenderer
	outputs   map[markdownOutput]string
}

type markdownKey struct {
	theme string
	width int
}

type markdownOutput struct {
	markdownKey
	text string
}

// NewMarkdown returns an empty renderer set.
func NewMarkdown() *Markdown {
	return &Markdown{renderers: map[markdownKey]*glamour.TermRenderer{}, outputs: map[markdownOutput]string{}}
}

// Render returns text rendered for the theme and wrapped to width, without
// leading or trailing blank lines; ok is false when glamour fails and the
// caller should show the text plainly.
func (m *Markdown) Render(st *themes.Styles, width int, text string) (out string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := markdownOutput{markdownKey{ThemeKey(st), width}, text}
	if out, ok := m.outputs[key]; ok {
		return out, true
	}
	tr, err := m.renderer(st, key.markdownKey)
	if err != nil {
		return "", false
	}
	rendered, err := tr.Render(text)
	if err != nil {
		return "", false
	}
	out = strings.Trim(rendered, "\n")
	if len(m.outputs) >= markdownCacheMax {
		clear(m.outputs)
	}
	m.outputs[key] = out
	return out, true
}

// Warm builds the renderer for a theme and width ahead of the first
// render; a panel runs it in a command after a resize or a theme switch
// so the first markdown it shows does not pay for it.
func (m *Markdown) Warm(st *themes.Styles, width int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, _ = m.renderer(st, markdownKey{ThemeKey(st), width})
}

// renderer returns the cached renderer for k, building it on first use.
// The caller holds the lock.
func (m *Markdown) renderer(st *themes.Styles, k markdownKey) (*glamour.TermRenderer, error) {
	if tr, ok := m.renderers[k]; ok {
		return tr, nil
	}
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(st.Markdown()), glamour.WithWordWrap(k.width))
	if err != nil {
		return nil, err
	}
	m.renderers[k] = tr
	return tr, nil
}

// Renderers is how many glamour renderers exist (tests prove sharing).
func (m *Markdown) Renderers() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.renderers)
}
