package turndiff

import "github.com/forgebench/forgebench/engine/jsonv"

// Usage is the usage an assistant response recorded for the request that
// produced it (Pi's usage: input is the uncached input).
type Usage struct {
	// EntryID and Index locate the assistant message in the session.
	EntryID string
	Index   int
	// Provider and Model name the model that answered.
	Provider, Model string
	Input           float64
	Output          float64
	CacheRead       float64
	CacheWrite      float64
}

// CacheUse is the prompt-cache use of one request (pi-forge's
// attachContextDiffUsage, plus where the cache dropped).
type CacheUse struct {
	Usage
	// PromptTokens = input + cacheRead + cacheWrite.
	PromptTokens float64
	// Reported is true once this provider/model reported cache figures in
	// this or an earlier response (else the figures mean nothing).
	Reported bool
	// HitRatio = cacheRead / PromptTokens; HasRatio false when not reported
	// or there were no prompt tokens (pi-forge's null).
	HitRatio float64
	HasRatio bool
	// Dropped is true when this request read less from the cache than the
	// previous one left in it (its cacheRead + cacheWrite); Lost is that
	// shortfall in tokens.
	Dropped bool
	Lost    float64
}

// CacheSummary totals the cache use of a list of requests.
type CacheSummary struct {
	Requests int
	// Reported counts requests whose model reports cache figures.
	Reported   int
	CacheRead  float64
	CacheWrite float64
	// Uncached is the summed uncached input.
	Uncached float64
	Prompt   float64
	// HitRatio = CacheRead / Prompt over reported requests; HasRatio false
	// when none reported.
	HitRatio float64
	HasRatio bool
	// Drops are the indexes (into the CacheSeries result) of the requests
	// where the cache dropped.
	Drops []int
}

// CacheSeries computes the cache use of requests in the order they were
// sent (one branch, oldest first).
func CacheSeries(usages []Usage) ([]CacheUse, CacheSummary) {
	out := make([]CacheUse, len(usages))
	sum := cacheSeries(len(usages), func(i int) *Usage { return &usages[i] }, out)
	return out, sum
}

// CacheSeriesAt is CacheSeries of the requests usages[at[0]],
// usages[at[1]], …: one branch picked out of a whole file's usages without
// copying them into a list of its own first.
func CacheSeriesAt(usages []Usage, at []int32) ([]CacheUse, CacheSummary) {
	out := make([]CacheUse, len(at))
	sum := cacheSeries(len(at), func(i int) *Usage { return &usages[at[i]] }, out)
	return out, sum
}

// CacheTotals is the summary of CacheSeries without the per-request
// figures (the totals of a whole file).
func CacheTotals(usages []Usage) CacheSummary {
	return cacheSeries(len(usages), func(i int) *Usage { return &usages[i] }, nil)
}

// cacheSeries reads the n requests usage(0) … usage(n-1), fills out (when
// not nil) and returns the summary.
func cacheSeries(n int, usage func(i int) *Usage, out []CacheUse) CacheSummary {
	// Whether a model has reported cache figures yet, keyed as pi-forge
	// keys it: "provider/model" (so "a/b"+"c" and "a"+"b/c" are one model).
	// A session keeps one model for long runs: the key is built only when
	// the pair changes from the previous usage's, not once per usage.
	reporting := map[string]bool{}
	var lastProvider, lastModel, key string
	lastReporting, haveLast := false, false
	var sum CacheSummary
	var reportedPrompt, reportedRead float64
	var prev *Usage
	for i := 0; i < n; i++ {
		u := usage(i)
		c := CacheUse{Usage: *u, PromptTokens: u.Input + u.CacheRead + u.CacheWrite}
		if !haveLast || u.Provider != lastProvider || u.Model != lastModel {
			lastProvider, lastModel, haveLast = u.Provider, u.Model, true
			key = u.Provider + "/" + u.Model
			lastReporting = reporting[key]
		}
		if !lastReporting && (u.CacheRead > 0 || u.CacheWrite > 0) {
			reporting[key], lastReporting = true, true
		}
		c.Reported = lastReporting
		if c.Reported && c.PromptTokens > 0 {
			c.HitRatio, c.HasRatio = u.CacheRead/c.PromptTokens, true
		}
		if prev != nil && c.Reported {
			if held := prev.CacheRead + prev.CacheWrite; u.CacheRead < held {
				c.Dropped, c.Lost = true, held-u.CacheRead
				sum.Drops = append(sum.Drops, i)
			}
		}
		if out != nil {
			out[i] = c
		}
		prev = u
		sum.Requests++
		sum.CacheRead += u.CacheRead
		sum.CacheWrite += u.CacheWrite
		sum.Uncached += u.Input
		sum.Prompt += c.PromptTokens
		if c.Reported {
			sum.Reported++
			reportedPrompt += c.PromptTokens
			reportedRead += u.CacheRead
		}
	}
	if sum.Reported > 0 && reportedPrompt > 0 {
		sum.HitRatio, sum.HasRatio = reportedRead/reportedPrompt, true
	}
	return sum
}

// CacheUseJSON renders one request's cache use: {entryId, provider, model,
// input, cacheRead, cacheWrite, promptTokens, hitRatio (null when not
// reported), cacheStatus ("reported"|"not-reported"), dropped, lostTokens}.
func CacheUseJSON(c *CacheUse) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("entryId", c.EntryID)
	o.Set("provider", c.Provider)
	o.Set("model", c.Model)
	o.Set("input", c.Input)
	o.Set("cacheRead", c.CacheRead)
	o.Set("cacheWrite", c.CacheWrite)
	o.Set("promptTokens", c.PromptTokens)
	if c.HasRatio {
		o.Set("hitRatio", c.HitRatio)
	} else {
		o.Set("hitRatio", nil)
	}
	status := "not-reported"
	if c.Reported {
		status = "reported"
	}
	o.Set("cacheStatus", status)
	o.Set("dropped", c.Dropped)
	o.Set("lostTokens", c.Lost)
	return o
}

// CacheSummaryJSON renders a summary: {requests, reportedRequests,
// cacheRead, cacheWrite, uncachedInput, promptTokens, hitRatio|null, drops}.
func CacheSummaryJSON(s *CacheSummary) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("requests", float64(s.Requests))
	o.Set("reportedRequests", float64(s.Reported))
	o.Set("cacheRead", s.CacheRead)
	o.Set("cacheWrite", s.CacheWrite)
	o.Set("uncachedInput", s.Uncached)
	o.Set("promptTokens", s.Prompt)
	if s.HasRatio {
		o.Set("hitRatio", s.HitRatio)
	} else {
		o.Set("hitRatio", nil)
	}
	o.Set("drops", float64(len(s.Drops)))
	return o
}
