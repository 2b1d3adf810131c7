package stats

import (
	"math"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// DaySpend is what a project's sessions spent on one day.
type DaySpend struct {
	// Day is the local date, YYYY-MM-DD.
	Day    string
	Cost   float64
	Tokens float64
	// Requests counts assistant messages; Sessions the sessions that
	// spent something that day.
	Requests int
	Sessions int
}

// SessionSpend is what one session spent.
type SessionSpend struct {
	Path, ID, Title string
	Cost            float64
	Tokens          float64
	Requests        int
	// Unpriced counts usage records without a cost for a model the
	// catalog does not know (counted as 0).
	Unpriced int
}

// SpendProblem is a session file that could not be read.
type SpendProblem struct {
	Path, Error string
}

// ProjectSpend is the cost of a list of sessions over time: per day,
// oldest first, only days with a usage record, and per session, costliest
// first.
type ProjectSpend struct {
	Days     []DaySpend
	Sessions []SessionSpend
	Cost     float64
	Tokens   float64
	Unpriced int
	Problems []SpendProblem
}

// SpendOf reads every listed session (a digest each, several at a time)
// and lays its usage records out by day in loc (a record without a time
// takes the time of the record before it, else the session's last
// activity) and by session. Costs are priced as SessionStats prices them.
func SpendOf(items []session.ListItem, cat *catalog.Catalog, loc *time.Location) ProjectSpend {
	type result struct {
		spend    SessionSpend
		days     map[string]*DaySpend
		problem  string
		skipped  bool
		spending bool
	}
	results := make([]result, len(items))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(len(items), max(1, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				it := &items[i]
				r := &results[i]
				r.spend = SessionSpend{Path: it.Path, ID: it.ID, Title: it.Title()}
				d, err := ReadDigest(it.Path, DigestOptions{})
				if err != nil {
					r.problem = err.Error()
					continue
				}
				r.days = map[string]*DaySpend{}
				lastMs := math.NaN()
				for _, sp := range d.Spendings(cat) {
					ms := sp.TimestampMs
					if math.IsNaN(ms) {
						ms = lastMs
					}
					lastMs = ms
					when := it.LastActivity
					if !math.IsNaN(ms) {
						when = time.UnixMilli(int64(ms))
					}
					day := when.In(loc).Format("2006-01-02")
					ds := r.days[day]
					if ds == nil {
						ds = &DaySpend{Day: day, Sessions: 1}
						r.days[day] = ds
					}
					ds.Cost += sp.Cost
					ds.Tokens += sp.Tokens
					r.spend.Cost += sp.Cost
					r.spend.Tokens += sp.Tokens
					if sp.Request {
						ds.Requests++
						r.spend.Requests++
					}
					if !sp.Priced {
						r.spend.Unpriced++
					}
				}
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()

	var out ProjectSpend
	days := map[string]*DaySpend{}
	for i := range results {
		r := &results[i]
		if r.problem != "" {
			out.Problems = append(out.Problems, SpendProblem{Path: items[i].Path, Error: r.problem})
			continue
		}
		for day, ds := range r.days {
			all := days[day]
			if all == nil {
				all = &DaySpend{Day: day}
				days[day] = all
			}
			all.Cost += ds.Cost
			all.Tokens += ds.Tokens
			all.Requests += ds.Requests
			all.Sessions++
		}
		r.spend.Cost = RoundSum(r.spend.Cost)
		out.Cost += r.spend.Cost
		out.Tokens += r.spend.Tokens
		out.Unpriced += r.spend.Unpriced
		out.Sessions = append(out.Sessions, r.spend)
	}
	out.Cost = RoundSum(out.Cost)
	for _, ds := range days {
		ds.Cost = RoundSum(ds.Cost)
		out.Days = append(out.Days, *ds)
	}
	sort.Slice(out.Days, func(i, j int) bool { return out.Days[i].Day < out.Days[j].Day })
	sort.SliceStable(out.Sessions, func(i, j int) bool { return out.Sessions[i].Cost > out.Sessions[j].Cost })
	return out
}

// SpendValue is the JSON of `session list --stats --json`:
//
//	{"cost", "tokens", "unpriced",
//	 "days": [{"day": "YYYY-MM-DD", "cost", "tokens", "requests", "sessions"}] (oldest first),
//	 "sessions": [{"path", "id", "title", "cost", "tokens", "requests", "unpriced"}] (costliest first),
//	 "problems": [{"path", "error"}]}
//
// Costs are dollars summed to 12 significant digits (RoundSum); a day is
// the local date of the usage records.
func SpendValue(sp ProjectSpend) *jsonv.Object {
	days := make([]any, len(sp.Days))
	for i, d := range sp.Days {
		days[i] = orderedObject("day", d.Day, "cost", d.Cost, "tokens", d.Tokens,
			"requests", float64(d.Requests), "sessions", float64(d.Sessions))
	}
	sessions := make([]any, len(sp.Sessions))
	for i, s := range sp.Sessions {
		sessions[i] = orderedObject("path", s.Path, "id", s.ID, "title", s.Title, "cost", s.Cost,
			"tokens", s.Tokens, "requests", float64(s.Requests), "unpriced", float64(s.Unpriced))
	}
	problems := make([]any, len(sp.Problems))
	for i, p := range sp.Problems {
		problems[i] = orderedObject("path", p.Path, "error", p.Error)
	}
	return orderedObject("cost", sp.Cost, "tokens", sp.Tokens, "unpriced", float64(sp.Unpriced),
		"days", days, "sessions", sessions, "problems", problems)
}
