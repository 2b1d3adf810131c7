package compile

import (
	"fmt"
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// The prompt-cache impact notice pi-forge 0.5.4 and later shows when a
// Preset switch (/preset use, /profile use) changes the system prompt
// (src/prompt-cache-warning.ts). Its texts are pi-forge's, word for word.

// CacheEstimateUnavailable is the notice when no request has been compiled
// with the current Preset yet, so the prompt it would leave is unknown.
const CacheEstimateUnavailable = "Switching may change the system prompt; prompt cache impact cannot be estimated until a request has been compiled."

// CacheUsage is what the last request read from the provider's cache:
// Reported is pi-forge's cacheStatus "reported" (this model has reported
// cache figures on the branch), CacheRead its cacheRead.
type CacheUsage struct {
	Reported  bool
	CacheRead float64
}

// PromptCacheWarning is pi-forge's formatPromptCacheWarning: "" when the
// prompts are equal, else how much of the current prompt's prefix the next
// one keeps (characters are code points, tokens ceil(chars/4), at least 1)
// and, when usage is reported, what the last request read from the cache.
func PromptCacheWarning(current, next string, usage *CacheUsage) string {
	if current == next {
		return ""
	}
	cur, nxt := []rune(current), []rune(next)
	common := 0
	for common < len(cur) && common < len(nxt) && cur[common] == nxt[common] {
		common++
	}
	currentTokens, commonTokens := approxTokens(len(cur)), approxTokens(common)
	suffix := ""
	if usage != nil && usage.Reported {
		suffix = " Last request read ~" + jsonv.ToString(usage.CacheRead) + " tokens from cache."
	}
	if common > 0 {
		retention := 0
		if len(cur) > 0 {
			retention = int(math.Floor(float64(common)/float64(len(cur))*100 + 0.5)) // Math.round
		}
		return fmt.Sprintf("Switching will change the system prompt. Common prefix with current prompt: ~%d tokens (%d%%). The remaining ~%d tokens of history will be re-processed.%s",
			commonTokens, retention, max(0, currentTokens-commonTokens), suffix)
	}
	return fmt.Sprintf("Switching replaces the system prompt entirely; the full prompt prefix (~%d tokens) will be re-processed.%s", currentTokens, suffix)
}

// approxTokens is pi-forge's approximateTokens: ceil(chars/4), at least 1
// for any text.
func approxTokens(chars int) int {
	if chars <= 0 {
		return 0
	}
	return max(1, (chars+3)/4)
}

// StackSwitch is what pi-forge's promptCacheWarningForStackSwitch knows
// about a Preset switch: the Presets before and after (keys "" and stacks
// nil for none) and, when a request has been compiled with the current
// one, the runtime and base prompt it was compiled against.
type StackSwitch struct {
	CurrentKey, NextKey string
	Current, Next       *preset.Stack
	// Compiled is false when no request has been compiled with the current
	// Preset (a fresh or resumed session, or no Preset active): the notice
	// is then CacheEstimateUnavailable.
	Compiled bool
	Runtime  Runtime
	Base     string
	Macros   map[string]string
	Usage    *CacheUsage
}

// StackSwitchCacheWarning is pi-forge's promptCacheWarningForStackSwitch:
// nothing when the key does not change, CacheEstimateUnavailable without
// a compiled request, else PromptCacheWarning between the current Preset's
// prompt and the next one's (Pi's base prompt when switching Presets off),
// both compiled against the same runtime and base.
func StackSwitchCacheWarning(sw StackSwitch) string {
	if sw.CurrentKey == sw.NextKey {
		return ""
	}
	if !sw.Compiled || sw.Current == nil {
		return CacheEstimateUnavailable
	}
	current := sw.systemPrompt(sw.Current)
	next := sw.Base
	if sw.Next != nil {
		next = sw.systemPrompt(sw.Next)
	}
	return PromptCacheWarning(current, next, sw.Usage)
}

// systemPrompt compiles only the system prompt of stack, as pi-forge's
// compileSystemPrompt does for the estimate.
func (sw *StackSwitch) systemPrompt(stack *preset.Stack) string {
	rt := sw.Runtime
	system, _ := newCompilation(stack, &rt, sw.Macros, nil).compileSystemPrompt(sw.Base)
	return system.SystemPrompt
}
