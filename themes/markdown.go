package themes

import (
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// baseMarkdown returns a deep-enough copy of glamour's stock layout for the
// background so palette overrides never mutate the package-level styles.
func baseMarkdown(isDark bool) ansi.StyleConfig {
	src := styles.LightStyleConfig
	if isDark {
		src = styles.DarkStyleConfig
	}
	cfg := src
	if src.CodeBlock.Chroma != nil {
		chroma := *src.CodeBlock.Chroma
		cfg.CodeBlock.Chroma = &chroma
	}
	// Drop the document margin: panes already pad their content.
	var zero uint
	cfg.Document.Margin = &zero
	return cfg
}

// asciiMarkdown is the colourless layout used under NO_COLOR. Inline
// code keeps its backticks (glamour's ASCII style sets them only as block
// affixes, which inline code ignores), so it stays apart from prose.
func asciiMarkdown() ansi.StyleConfig {
	cfg := styles.ASCIIStyleConfig
	var zero uint
	cfg.Document.Margin = &zero
	cfg.Code.Prefix, cfg.Code.Suffix = "`", "`"
	cfg.Code.BlockPrefix, cfg.Code.BlockSuffix = "", ""
	return cfg
}
