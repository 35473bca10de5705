package api_test

import (
	"net/url"
	"testing"
)

// Every result says whether it holds a word of the query (keyword_match),
// and the answer how many files found do (keyword_matches): none means
// the search found files by meaning alone, which every client reports as
// "no files match".
func TestResultsSayWhetherTheyMatchAWord(t *testing.T) {
	s, _ := corpus(t) // "oven" is in no file, but close in meaning to the bread recipe
	cases := []struct {
		body    map[string]any
		matches float64
		first   bool // the first result's keyword_match
	}{
		{map[string]any{"query": "oven"}, 0, false},
		{map[string]any{"query": "tomatoes"}, 1, true},
		{map[string]any{"query": "budget"}, 2, true},
		{map[string]any{"query": "budget", "offset": 1, "limit": 1}, 2, true}, // counted over the search, not the page
		{map[string]any{"query": "ext:txt"}, 4, true},                         // filters only: every file found matches
	}
	for _, c := range cases {
		r := s.Do("POST", "/api/search/", c.body)
		results, _ := r.Field("results").([]any)
		if r.Status != 200 || len(results) == 0 || r.Field("keyword_matches") != c.matches ||
			results[0].(map[string]any)["keyword_match"] != c.first {
			t.Errorf("%v: %d %s", c.body, r.Status, r.Body)
		}
	}
	// The meaning-only result is the recipe's, found with no word of it.
	r := s.Do("POST", "/api/search/", map[string]any{"query": "oven"})
	if hit := r.Field("results").([]any)[0].(map[string]any); hit["keyword_score"] != float64(0) || hit["semantic_score"].(float64) <= 0 {
		t.Errorf("oven: not a result by meaning alone: %s", r.Body)
	}
	if r := s.Do("POST", "/api/search/", map[string]any{"query": "oven", "mode": "keyword"}); r.Field("keyword_matches") != float64(0) || r.Field("total") != float64(0) {
		t.Errorf("keyword mode: %s", r.Body)
	}
	// A semantic search looks no word up: it says nothing of them.
	if r := s.Do("POST", "/api/search/", map[string]any{"query": "tomatoes", "mode": "semantic"}); r.Status != 200 ||
		r.Field("keyword_matches") != nil || r.Field("results").([]any)[0].(map[string]any)["keyword_match"] != nil {
		t.Errorf("semantic mode: %d %s", r.Status, r.Body)
	}
	for q, want := range map[string]float64{"oven": 0, "tomatoes": 1} {
		r := s.Get("/api/search/stream?query=" + url.QueryEscape(q))
		results, _ := r.Field("data.results").([]any)
		if r.Status != 200 || len(results) == 0 || r.Field("data.keyword_matches") != want ||
			results[0].(map[string]any)["keyword_match"] != (want > 0) {
			t.Errorf("stream %s: %d %s", q, r.Status, r.Body)
		}
	}
}
