package replay

import (
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
)

// CacheReport is the prompt-cache use recorded in a session: per request
// along one branch, and totals over the file.
type CacheReport struct {
	// LeafIndex is the branch's leaf (-1 for an empty session).
	LeafIndex int
	// Uses are the requests of the branch (assistant messages with usage),
	// oldest first; Branch totals them.
	Uses   []turndiff.CacheUse
	Branch turndiff.CacheSummary
	// File totals every assistant response of the file, all branches, in
	// file order (drops there are only indicative across branches).
	File turndiff.CacheSummary
}

// CacheReportAt reads the cache figures of the branch ending at leaf and of
// the whole file. Each assistant message's usage is read once: the branch
// takes its requests from the file's.
func CacheReportAt(s *session.Session, leaf int) CacheReport {
	r := CacheReport{LeafIndex: -1}
	file := usagesOf(s)
	// The file's totals and the branch's series are independent passes
	// over tens of thousands of usages in a big session: the totals run
	// beside the branch.
	var totals session.FaultGroup
	if len(file) >= session.ParallelMin && runtime.GOMAXPROCS(0) > 1 {
		totals.Go(func() { r.File = turndiff.CacheTotals(file) })
	} else {
		r.File = turndiff.CacheTotals(file)
	}
	if leaf >= 0 && leaf < len(s.Entries) {
		r.LeafIndex = leaf
		path := s.PathTo(leaf)
		at := make([]int32, 0, eachBranchUsage(path, file, nil))
		eachBranchUsage(path, file, func(k int) { at = append(at, int32(k)) })
		r.Uses, r.Branch = turndiff.CacheSeriesAt(file, at)
	}
	totals.Wait()
	return r
}

// eachBranchUsage calls fn (when not nil) with the position in file of
// each usage whose entry is on path, in path order, and returns how many
// there are. file is in entry order, and so is a path in a file written by
// Pi (parents come first): the two are walked side by side, touching
// neither the entries nor more of file than the path passes. A path that
// goes back (a hand-made file) or jumps far ahead is searched instead.
func eachBranchUsage(path []int, file []turndiff.Usage, fn func(k int)) int {
	n, k, prev := 0, 0, -1
	for _, i := range path {
		if i <= prev {
			k = sort.Search(len(file), func(j int) bool { return file[j].Index >= i })
		} else {
			for steps := 0; k < len(file) && file[k].Index < i; steps++ {
				if steps == 16 {
					base := k
					k = base + sort.Search(len(file)-base, func(j int) bool { return file[base+j].Index >= i })
					break
				}
				k++
			}
		}
		prev = i
		if k < len(file) && file[k].Index == i {
			n++
			if fn != nil {
				fn(k)
			}
		}
	}
	return n
}

// usagesOf lists the assistant messages of the file that recorded usage,
// in file order. On a big file the usages are read by one goroutine per
// core, each over a contiguous range, straight into its part of the one
// list (fresh memory costs more to touch than to copy: the list is not
// built in parts and joined).
func usagesOf(s *session.Session) []turndiff.Usage {
	n := len(s.Entries)
	workers := runtime.GOMAXPROCS(0)
	if n < session.ParallelMin || workers < 2 {
		return usagesIn(s, 0, n, nil)
	}
	chunk := (n + workers - 1) / workers
	// Each range's assistant messages are counted first: they bound its
	// usages and place its part of the list.
	counts := make([]int, workers)
	session.ForEachRange(n, chunk, func(w, lo, hi int) { counts[w] = assistantsIn(s, lo, hi) })
	starts := make([]int, workers+1)
	for w, c := range counts {
		starts[w+1] = starts[w] + c
	}
	all := make([]turndiff.Usage, starts[workers])
	found := make([]int, workers)
	session.ForEachRange(n, chunk, func(w, lo, hi int) {
		found[w] = len(usagesIn(s, lo, hi, all[starts[w]:starts[w]:starts[w+1]]))
	})
	// Close the gaps left by messages without usage, in place.
	out := all[:found[0]]
	for w := 1; w < workers; w++ {
		out = append(out, all[starts[w]:starts[w]+found[w]]...)
	}
	return out
}

// assistantsIn counts the assistant messages among entries [lo, hi).
func assistantsIn(s *session.Session, lo, hi int) int {
	n := 0
	for i := lo; i < hi; i++ {
		if e := &s.Entries[i]; e.Type == session.TypeMessage && e.Role == session.RoleAssistant {
			n++
		}
	}
	return n
}

// usagesIn appends to out the usages of the assistant messages among
// entries [lo, hi), in file order; a nil out is allocated to fit.
//
// Provider and model names are interned: read from a mapped file they
// point into the map, one page per usage, and every later use of them
// (the cache series keys usages by provider/model) would touch those
// cold pages again, at the cost of a cache miss each.
func usagesIn(s *session.Session, lo, hi int, out []turndiff.Usage) []turndiff.Usage {
	names := map[string]string{}
	var lastProvider, lastModel session.RawValue
	var provName, modelName string
	haveLast := false
	if out == nil {
		// Sized up front: growing by doubling allocated (and faulted in)
		// four times the final size on a big file.
		out = make([]turndiff.Usage, 0, assistantsIn(s, lo, hi))
	}
	for i := lo; i < hi; i++ {
		e := &s.Entries[i]
		if e.Type != session.TypeMessage || e.Role != session.RoleAssistant {
			continue
		}
		u, recorded := usageTokens(e, i)
		if !recorded || !requested(&u) {
			continue
		}
		// Runs of one model are the rule: names are decoded and interned
		// only when the raw text differs from the previous usage's.
		provider, model := e.MessageProvider(), e.MessageModel()
		if !haveLast || string(provider) != string(lastProvider) || (provider == nil) != (lastProvider == nil) ||
			string(model) != string(lastModel) || (model == nil) != (lastModel == nil) {
			p, _ := provider.Str()
			m, _ := model.Str()
			lastProvider, lastModel, haveLast = provider, model, true
			provName, modelName = internName(names, p), internName(names, m)
		}
		u.Provider, u.Model = provName, modelName
		out = append(out, u)
	}
	return out
}

// maxInternedNames bounds internName's table: a file with ever new model
// names keeps its strings as they are past it.
const maxInternedNames = 1024

// internName returns the one heap copy of name held in names.
func internName(names map[string]string, name string) string {
	if v, ok := names[name]; ok {
		return v
	}
	if len(names) >= maxInternedNames {
		return name
	}
	v := strings.Clone(name)
	names[v] = v
	return v
}

// Prediction is what the diff of two consecutive requests predicts for the
// cache, next to what the provider reported.
type Prediction struct {
	// Use is the request's recorded cache use; Previous the request before
	// it on the branch.
	Use      turndiff.CacheUse
	Previous turndiff.CacheUse
	// Diff compares the rebuilt previous request with this one.
	Diff turndiff.Diff
	// Breaks is true when the diff puts the boundary inside the previous
	// request; Cause names what moved it (nil when the data does not say).
	Breaks bool
	Cause  *turndiff.Cause
	// Err is set when a request could not be rebuilt.
	Err error
}

// PredictAt rebuilds the requests of uses[k-1] and uses[k] (both on one
// branch of s) as opts says and diffs them.
func PredictAt(s *session.Session, uses []turndiff.CacheUse, k int, opts RequestOptions) Prediction {
	return predictAt(s, uses, k, opts, nil)
}

// predictAt is PredictAt with the requests already rebuilt (by entry
// index, with the error of each that could not be): adjacent drops share
// one.
func predictAt(s *session.Session, uses []turndiff.CacheUse, k int, opts RequestOptions, built map[int]rebuilt) Prediction {
	p := Prediction{Use: uses[k]}
	if k == 0 {
		return p
	}
	p.Previous = uses[k-1]
	rebuild := func(index int) (*Request, error) {
		if b, ok := built[index]; ok {
			return b.r, b.err
		}
		return RequestWith(s, index, opts)
	}
	prev, err := rebuild(uses[k-1].Index)
	if err != nil {
		p.Err = err
		return p
	}
	cur, err := rebuild(uses[k].Index)
	if err != nil {
		p.Err = err
		return p
	}
	p.Diff = turndiff.DiffTurns(&prev.Turn.Turn, &cur.Turn.Turn)
	p.Breaks = turndiff.BreaksCache(&p.Diff, &prev.Turn.Turn)
	a := &Resolved{Session: s, Request: prev, Index: uses[k-1].Index, Turn: prev.Turn}
	b := &Resolved{Session: s, Request: cur, Index: uses[k].Index, Turn: cur.Turn}
	p.Cause = ExplainDiff(a, b, &p.Diff)
	return p
}

// rebuilt is one request rebuilt for a prediction, or why it could not be.
type rebuilt struct {
	r   *Request
	err error
}

// MaxPredictedDrops is how many cache drops (the most recent) get a
// predicted boundary by default: each rebuilds up to two requests, about
// as costly as the context of that request, so a long session with many
// drops asks for more explicitly.
const MaxPredictedDrops = 5

// PredictDrops predicts the boundary at the n most recent drops of r (every
// drop when n < 0), oldest first.
func PredictDrops(s *session.Session, r CacheReport, opts RequestOptions, n int) []Prediction {
	drops := r.Branch.Drops
	if n >= 0 && len(drops) > n {
		drops = drops[len(drops)-n:]
	}
	return Predict(s, r.Uses, drops, opts)
}

// Predict predicts the boundary at the drops uses[k] for k in ks (indexes
// into uses, one branch of s), in that order. Adjacent drops share the
// request between them, rebuilt once.
func Predict(s *session.Session, uses []turndiff.CacheUse, ks []int, opts RequestOptions) []Prediction {
	// Every request is rebuilt once, then every drop diffed, each step
	// spread over the cores: the requests and drops are independent, and
	// rebuilding one costs about as much as a session context.
	var need []int
	seen := map[int]bool{}
	for _, k := range ks {
		if k <= 0 {
			continue
		}
		for _, i := range [2]int{uses[k-1].Index, uses[k].Index} {
			if !seen[i] {
				seen[i] = true
				need = append(need, i)
			}
		}
	}
	// The requests' contexts lie on one branch: their paths are prefixes
	// of the path to the deepest.
	var paths *session.BranchPaths
	if deepest := slices.Max(append([]int{-1}, need...)); deepest >= 0 {
		paths = session.NewBranchPaths(s, deepest)
		paths.Decode(s) // once for all the requests, not by each of them at once
	}
	requests := make([]rebuilt, len(need))
	session.InParallel(len(need), func(j int) {
		requests[j].r, requests[j].err = requestOn(s, need[j], opts, paths)
	})
	built := make(map[int]rebuilt, len(need))
	for j, i := range need {
		built[i] = requests[j]
	}
	out := make([]Prediction, len(ks))
	session.InParallel(len(ks), func(j int) { out[j] = predictAt(s, uses, ks[j], opts, built) })
	return out
}

// CacheValue renders a cache report for `session stats --json` (key
// "cache"): {branch, file?, requests, drops}. branch and file are
// turndiff.CacheSummaryJSON; file is present for the whole-session scope;
// requests are the branch's requests (turndiff.CacheUseJSON); drops are
// the predicted ones: {entryId, previousEntryId, lostTokens,
// predictedPrefixTokens, predictedBreak, cause (null when unknown),
// error?}.
func CacheValue(r CacheReport, withFile bool, preds []Prediction) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("branch", turndiff.CacheSummaryJSON(&r.Branch))
	if withFile {
		o.Set("file", turndiff.CacheSummaryJSON(&r.File))
	}
	reqs := make([]any, len(r.Uses))
	for i := range r.Uses {
		reqs[i] = turndiff.CacheUseJSON(&r.Uses[i])
	}
	o.Set("requests", reqs)
	drops := make([]any, 0, len(preds))
	for i := range preds {
		p := &preds[i]
		d := jsonv.NewObject()
		d.Set("entryId", p.Use.EntryID)
		d.Set("previousEntryId", p.Previous.EntryID)
		d.Set("lostTokens", p.Use.Lost)
		if p.Err != nil {
			d.Set("error", p.Err.Error())
		} else {
			d.Set("predictedPrefixTokens", float64(p.Diff.PrefixTokens))
			d.Set("predictedBreak", p.Breaks)
			if p.Cause != nil {
				d.Set("cause", turndiff.CauseJSON(p.Cause))
			} else {
				d.Set("cause", nil)
			}
		}
		drops = append(drops, d)
	}
	o.Set("drops", drops)
	return o
}
