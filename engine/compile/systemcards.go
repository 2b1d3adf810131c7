package compile

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// PartSystem is the kind of a preview part that is one of Pi's System
// messages after the compiled prompt was projected into the request.
const PartSystem = "system-message"

// SystemCard is what the preview shows of a System message, as pi-forge's
// preview dock keeps them apart (pi-forge 0.5.6 docs, "Previewing
// capability updates"): the body text, the named sections other than Pi's
// own, and the tool declarations, which are history (what was declared
// then), never the current tool selection.
type SystemCard struct {
	// Leading is the first System message of the request: its content is
	// the compiled system prompt (shown as the system prompt, not here).
	Leading bool
	// Body is the message's own content (empty for the leading one).
	Body string
	// Sections are the named sections that are not Pi's built-in ones
	// (those are replaced by the compiled prompt), in order; a nil Value is
	// a removal.
	Sections []SystemSection
	// ToolsAdded and ToolsRemoved name the tools the message declared.
	ToolsAdded, ToolsRemoved []string
}

// SystemSection is one named section of a System message.
type SystemSection struct {
	Name  string
	Value *string
}

// Empty reports whether the card has nothing to show.
func (c *SystemCard) Empty() bool {
	return c.Body == "" && len(c.Sections) == 0 && len(c.ToolsAdded) == 0 && len(c.ToolsRemoved) == 0
}

// ToolsNote is the collapsed line of the card's tool declarations ("" when
// it declares none).
func (c *SystemCard) ToolsNote() string {
	if len(c.ToolsAdded) == 0 && len(c.ToolsRemoved) == 0 {
		return ""
	}
	var parts []string
	for _, n := range c.ToolsAdded {
		parts = append(parts, "+"+n)
	}
	for _, n := range c.ToolsRemoved {
		parts = append(parts, "-"+n)
	}
	return "tools declared then: " + strings.Join(parts, " ") + " (history, not the current selection)"
}

// Text is the card as text: the body (or, for the leading message, a
// pointer to the system prompt), each section, then the tool note.
func (c *SystemCard) Text() string {
	var parts []string
	switch {
	case c.Leading:
		parts = append(parts, "(content: the compiled system prompt above)")
	case c.Body != "":
		parts = append(parts, c.Body)
	}
	for _, s := range c.Sections {
		if s.Value == nil {
			parts = append(parts, "[section "+s.Name+" removed]")
			continue
		}
		parts = append(parts, "[section "+s.Name+"]\n"+*s.Value)
	}
	if note := c.ToolsNote(); note != "" {
		parts = append(parts, note)
	}
	return strings.Join(parts, "\n")
}

// estimateText is what the card's token estimate counts: body and section
// values; never tool schemas or labels (the leading body is the system
// prompt, counted there).
func (c *SystemCard) estimateText() string {
	parts := []string{c.Body}
	for _, s := range c.Sections {
		if s.Value != nil {
			parts = append(parts, *s.Value)
		}
	}
	return strings.Join(parts, "\n\n")
}

// PresentSystemMessages turns the preview's System message parts into
// System cards as pi-forge's dock shows the request: the compiled prompt
// replaces the leading System message's content and Pi's built-in sections
// everywhere (projectPresetSystemPrompt, §4.2), and a card left with no
// body, section or tool declaration is hidden (HiddenSystem counts them).
// Parts of other kinds (capability updates …) are kept as they are.
func PresentSystemMessages(res PreviewResult) PreviewResult {
	out := make([]Part, 0, len(res.Messages))
	leading := true
	for _, p := range res.Messages {
		if (p.Kind != PartHistory && p.Kind != PartItem) || !isSystemMessage(p.Message) {
			out = append(out, p)
			continue
		}
		card := systemCard(p.Message, leading)
		leading = false
		if card.Empty() {
			res.HiddenSystem++
			continue
		}
		p.Kind, p.System = PartSystem, card
		p.Text = card.Text()
		p.Tokens = EstimateTokens(card.estimateText())
		out = append(out, p)
	}
	res.Messages = out
	return res
}

// systemCard reads one System message.
func systemCard(message any, leading bool) *SystemCard {
	card := &SystemCard{Leading: leading}
	if !leading {
		content, _ := field(message, "content")
		card.Body = systemContentText(content)
	}
	if sections, ok := field(message, "sections"); ok {
		if obj, isObj := sections.(*jsonv.Object); isObj {
			for _, key := range obj.Keys() {
				if isPiBuiltinSection(key) {
					continue
				}
				v, _ := obj.Get(key)
				s := SystemSection{Name: key}
				if v != nil {
					text := jsonv.ToString(v)
					s.Value = &text
				}
				card.Sections = append(card.Sections, s)
			}
		}
	}
	card.ToolsAdded = toolNames(message, "toolsAdded")
	card.ToolsRemoved = toolNames(message, "toolsRemoved")
	return card
}

// toolNames lists the names of a System message's tool declarations.
func toolNames(message any, key string) []string {
	v, _ := field(message, key)
	list, _ := v.([]any)
	var out []string
	for _, t := range list {
		if name, ok := stringField(t, "name"); ok && name != "" {
			out = append(out, name)
		}
	}
	return out
}
