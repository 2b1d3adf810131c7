package stats

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// Token estimates of the messages sent to the model (Pi's compaction.ts),
// used by the context usage of stats.go.

// estimateContextTokens is Pi's estimateContextTokens(messages).tokens.
func estimateContextTokens(msgs []any) float64 {
	last := -1
	var usageTokens float64
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(*jsonv.Object)
		if m == nil || m.GetString("role") != session.RoleAssistant {
			continue
		}
		if stop := m.GetString("stopReason"); stop == "aborted" || stop == "error" {
			continue
		}
		uv, _ := m.Get("usage")
		u, _ := uv.(*jsonv.Object)
		if t := usageContextTokens(u); u != nil && t > 0 {
			last, usageTokens = i, t
			break
		}
	}
	total := usageTokens
	for i := last + 1; i < len(msgs); i++ {
		m, _ := msgs[i].(*jsonv.Object)
		total += estimateMessageTokens(m)
	}
	return total
}

// estimatedImageChars is what one image counts for in the chars/4 estimate.
const estimatedImageChars = 4800

// estimateMessageTokens is Pi's estimateTokens: ceil(chars / 4) over the
// text a message carries (UTF-16 lengths).
func estimateMessageTokens(m *jsonv.Object) float64 {
	chars := 0
	switch m.GetString("role") {
	case session.RoleUser, session.RoleCustom, session.RoleToolResult:
		v, _ := m.Get("content")
		chars = contentChars(v)
	case session.RoleAssistant:
		v, _ := m.Get("content")
		blocks, _ := v.([]any)
		for _, bv := range blocks {
			blk, _ := bv.(*jsonv.Object)
			switch blk.GetString("type") {
			case session.BlockText:
				chars += jsonv.UTF16Len(blk.GetString("text"))
			case session.BlockThinking:
				chars += jsonv.UTF16Len(blk.GetString("thinking"))
			case session.BlockToolCall:
				args, _ := blk.Get("arguments")
				chars += jsonv.UTF16Len(blk.GetString("name")) + jsonv.UTF16Len(jsonv.Stringify(args))
			}
		}
	case session.RoleBashExecution:
		chars = jsonv.UTF16Len(m.GetString("command")) + jsonv.UTF16Len(m.GetString("output"))
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		chars = jsonv.UTF16Len(m.GetString("summary"))
	}
	return math.Ceil(float64(chars) / 4)
}

func contentChars(v any) int {
	if s, ok := v.(string); ok {
		return jsonv.UTF16Len(s)
	}
	blocks, _ := v.([]any)
	chars := 0
	for _, bv := range blocks {
		blk, _ := bv.(*jsonv.Object)
		switch blk.GetString("type") {
		case session.BlockText:
			chars += jsonv.UTF16Len(blk.GetString("text"))
		case session.BlockImage:
			chars += estimatedImageChars
		}
	}
	return chars
}
