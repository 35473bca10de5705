package search

import (
	"maps"
	"slices"
	"testing"

	"trove/backend/store/tokens"
)

// Feedback reads words as the index holds them: "x86" and "amd64" are
// words (split at their digits, "amd" is a word no file holds), numbers
// alone are not.
func TestFeedbackReadsTheIndexWords(t *testing.T) {
	text := "The x86 and amd64 ports share the assembler since 2004; x86 code and amd64 code in 2004."
	docs := []feedbackDoc{{indexWords(text), 2}, {indexWords(text), 1}}
	got := feedbackCandidates(docs, map[string]bool{}, 2)
	for _, w := range []string{"x86", "amd64", "assembler"} {
		if got[tokens.Stem(w)] == nil {
			t.Errorf("%q is not a feedback candidate: %v", w, slices.Collect(maps.Keys(got)))
		}
	}
	for _, w := range []string{"amd", "2004"} {
		if got[tokens.Stem(w)] != nil {
			t.Errorf("%q is a feedback candidate", w)
		}
	}
}
