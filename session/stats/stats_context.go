package stats

import (
	"math"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// contextUsageAt mirrors AgentSession.getContextUsage for the branch ending
// at leaf: the model selected by the path gives the context window; after
// the latest compaction only a later assistant usage is trusted; the token
// count is the last valid assistant usage plus a chars/4 estimate of the
// messages after it (estimateContextTokens).
func contextUsageAt(s *session.Session, leaf int, cat *catalog.Catalog) *ContextUsage {
	if leaf < 0 || cat == nil {
		return nil
	}
	ctx, err := s.Context(leaf)
	if err != nil || ctx.Model == nil {
		return nil
	}
	provider, _ := ctx.Model.Provider.Str()
	modelID, _ := ctx.Model.ModelID.Str()
	m, ok := cat.Lookup(provider, modelID)
	if !ok || !(m.ContextWindow > 0) {
		return nil
	}
	cu := &ContextUsage{Provider: provider, ModelID: modelID, ContextWindow: m.ContextWindow}
	basis := contextBasis(s, ctx.Path)
	if basis == contextUnknown {
		return cu
	}
	cu.Known = true
	msgs := ctx.AgentMessages()
	if basis == contextFromContent {
		for _, mv := range msgs {
			mo, _ := mv.(*jsonv.Object)
			cu.Tokens += estimateMessageTokens(mo)
		}
	} else {
		cu.Tokens = estimateContextTokens(msgs)
	}
	cu.Percent = cu.Tokens / cu.ContextWindow * 100
	return cu
}

// How a context token count can be obtained (getContextUsage).
const (
	contextFromUsage   = iota // the last assistant usage plus an estimate of what follows
	contextFromContent        // a chars/4 estimate of every message
	contextUnknown            // not until the next answer after a compaction
)

// contextBasis follows getContextUsage: without a compaction on the path
// usage is trusted; after the latest compaction only a later assistant (not
// aborted/error) with context tokens is, and one whose
// usage.contextUsage.state is "unavailable" switches to estimating content.
func contextBasis(s *session.Session, path []int) int {
	last := -1
	for k, i := range path {
		if s.Entries[i].Type == session.TypeCompaction {
			last = k
		}
	}
	if last < 0 {
		return contextFromUsage
	}
	fromContent := false
	for k := len(path) - 1; k > last; k-- {
		e := &s.Entries[path[k]]
		if e.Type != session.TypeMessage || e.Role != session.RoleAssistant {
			continue
		}
		stop, _ := e.MessageField("stopReason").Str()
		if stop == "aborted" || stop == "error" {
			continue
		}
		v, _, err := e.UsageRaw().Decode()
		if err != nil {
			break
		}
		u, _ := v.(*jsonv.Object)
		if cu, _ := u.Get("contextUsage"); asObject(cu).GetString("state") == "unavailable" {
			fromContent = true
			continue
		}
		if u != nil && usageContextTokens(u) > 0 {
			return contextFromUsage
		}
		break
	}
	if fromContent {
		return contextFromContent
	}
	return contextUnknown
}

func asObject(v any) *jsonv.Object {
	o, _ := v.(*jsonv.Object)
	return o
}

// usageContextTokens is calculateContextTokens: totalTokens when truthy,
// else input + output + cacheRead + cacheWrite (missing numbers count 0).
func usageContextTokens(u *jsonv.Object) float64 {
	if t := objNumber(u, "totalTokens"); t != 0 && !math.IsNaN(t) {
		return t
	}
	return objNumber(u, "input") + objNumber(u, "output") + objNumber(u, "cacheRead") + objNumber(u, "cacheWrite")
}

func objNumber(o *jsonv.Object, key string) float64 {
	if o == nil {
		return 0
	}
	v, _ := o.Get(key)
	f, _ := v.(float64)
	return f
}
