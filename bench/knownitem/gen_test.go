package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A remembered phrase is words that stand together in one sentence of the
// file, lower-cased, with nothing but letters in them.
func TestPhraseStandsTogetherInTheText(t *testing.T) {
	target := file{Rel: "notes.txt", Text: "The Remote Procedure Call returns (an error) when the peer hangs up. " +
		"Retry with backoff, 3 times; then give up and log the failure."}
	files := []file{target}
	for i := range 9 { // words are distinctive when few files hold them
		files = append(files, file{Rel: fmt.Sprint(i, ".txt"), Text: "the when then and with"})
	}
	g := &generator{r: rand.New(rand.NewPCG(1, 2)), s: collect(files), files: files}
	sentences := strings.FieldsFunc(strings.ToLower(target.Text), func(r rune) bool { return strings.ContainsRune(".,;()", r) })
	made := 0
	for range 200 {
		q, ok := g.phrase(target)
		if !ok {
			continue
		}
		made++
		if n := len(strings.Fields(q)); n < 2 || n > 4 {
			t.Fatalf("%q has %d words", q, n)
		}
		inOne := false
		for _, s := range sentences {
			inOne = inOne || strings.Contains(" "+strings.Join(strings.Fields(s), " ")+" ", " "+q+" ")
		}
		if !inOne {
			t.Fatalf("%q does not stand together in one sentence of the text", q)
		}
		if strings.ContainsAny(q, "0123456789") {
			t.Fatalf("%q holds a digit", q)
		}
	}
	if made < 100 {
		t.Errorf("%d phrases of 200 draws, want most", made)
	}
}

// A run crossing punctuation or holding digits weighs nothing; one of
// common words only weighs nothing either.
func TestPhraseOfWeighsDistinctiveWords(t *testing.T) {
	g := &generator{s: stats{n: 10, df: map[string]int{"remote": 1, "the": 9}}}
	if q, w := g.phraseOf([]string{"The", "Remote."}); q != "the remote" || w <= 0 {
		t.Errorf("phraseOf = %q, %v; want the remote with a weight", q, w)
	}
	for _, fields := range [][]string{{"remote,", "the"}, {"remote", "x86"}, {"the", "the"}} {
		if _, w := g.phraseOf(fields); w != 0 {
			t.Errorf("phraseOf(%q) weighs %v, want 0", fields, w)
		}
	}
}
