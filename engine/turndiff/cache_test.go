package turndiff

import (
	"reflect"
	"testing"
)

func TestCacheSeries(t *testing.T) {
	uses, sum := CacheSeries([]Usage{
		{EntryID: "a", Provider: "anthropic", Model: "m", Input: 100, CacheWrite: 900},
		{EntryID: "b", Provider: "anthropic", Model: "m", Input: 50, CacheRead: 900, CacheWrite: 100},
		{EntryID: "c", Provider: "anthropic", Model: "m", Input: 1100, CacheRead: 0, CacheWrite: 0},
		{EntryID: "d", Provider: "openai", Model: "x", Input: 10},
	})
	if uses[0].Dropped || uses[1].Dropped || !uses[2].Dropped || uses[2].Lost != 1000 || uses[3].Dropped {
		t.Errorf("drops: %+v", uses)
	}
	if !uses[2].Reported || !uses[2].HasRatio || uses[2].HitRatio != 0 || uses[3].Reported || uses[3].HasRatio {
		t.Errorf("reporting: %+v %+v", uses[2], uses[3])
	}
	if uses[1].HitRatio != 900.0/1050 || uses[1].PromptTokens != 1050 {
		t.Errorf("ratio %v prompt %v", uses[1].HitRatio, uses[1].PromptTokens)
	}
	if sum.Requests != 4 || sum.Reported != 3 || len(sum.Drops) != 1 || sum.Drops[0] != 2 || sum.Uncached != 1260 ||
		sum.HitRatio != 900.0/3150.0 {
		t.Errorf("summary %+v", sum)
	}
}

// TestCacheSeriesReportingPerModel checks that a model's reporting state
// survives other models answering in between, and that models are keyed
// as pi-forge keys them ("provider/model", so a slash may join two pairs).
func TestCacheSeriesReportingPerModel(t *testing.T) {
	uses, sum := CacheSeries([]Usage{
		{EntryID: "a", Provider: "anthropic", Model: "m", Input: 10, CacheWrite: 5},
		{EntryID: "b", Provider: "openai", Model: "x", Input: 10},
		{EntryID: "c", Provider: "anthropic", Model: "m", Input: 10},
		{EntryID: "d", Provider: "openai", Model: "x", Input: 10},
		{EntryID: "e", Provider: "openrouter/anthropic", Model: "m", Input: 10, CacheRead: 1},
		{EntryID: "f", Provider: "openrouter", Model: "anthropic/m", Input: 10},
		{EntryID: "g", Provider: "openrouter", Model: "anthropic/x", Input: 10},
	})
	want := []bool{true, false, true, false, true, true, false}
	for i, u := range uses {
		if u.Reported != want[i] {
			t.Errorf("%s reported %v, want %v", u.EntryID, u.Reported, want[i])
		}
	}
	if sum.Reported != 4 {
		t.Errorf("reported requests %d, want 4", sum.Reported)
	}
}

// TestCacheSeriesAt checks that a series over picked usages is the series
// over a list of them.
func TestCacheSeriesAt(t *testing.T) {
	file := []Usage{
		{EntryID: "a", Provider: "p", Model: "m", Input: 10, CacheWrite: 500},
		{EntryID: "x", Provider: "p", Model: "m", Input: 10, CacheRead: 9000},
		{EntryID: "b", Provider: "p", Model: "m", Input: 10, CacheRead: 400},
		{EntryID: "y", Provider: "q", Model: "n", Input: 7},
		{EntryID: "c", Provider: "p", Model: "m", Input: 10, CacheRead: 500, CacheWrite: 20},
	}
	at := []int32{0, 2, 4}
	got, gotSum := CacheSeriesAt(file, at)
	want, wantSum := CacheSeries([]Usage{file[0], file[2], file[4]})
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotSum, wantSum) {
		t.Fatalf("picked %+v %+v\nlisted %+v %+v", got, gotSum, want, wantSum)
	}
	if len(gotSum.Drops) != 1 || gotSum.Drops[0] != 1 || got[1].Lost != 100 {
		t.Fatalf("the drop at b (500 held, 400 read) is its branch's, not the file's: %+v", gotSum)
	}
}
