package tokens_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// The stemmer must agree with SQLite's porter tokenizer, or document
// frequencies and query terms would miss the index: in every script, as
// unicode61 folds only the letters whose base is ASCII (é, ṩ, not й, ά or
// ば).
func TestStemAgreesWithSQLitePorter(t *testing.T) {
	words := strings.Fields(`running runner runs ran easily fairly happiness relational conditional rational
		valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication
		operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative
		formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable
		defensible irritant replacement adjustment dependent adoption homologou communism activate angulariti
		homologous effective bowdlerize shingles leaking roofs aerodynamics supersonic boundary layers caresses ponies
		ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping tanned falling
		hissing fizzed failing filing happy sky generalizations oscillators cafés naïve über x86 3d mp3 résumé
		Ångström ṩ ệ ǘ ő ş ţ ñ ç ǎ ø ł đ ß мой новый ёлка Йошкар Ελλάδα ά ΐ 例えば バグ ガイド 한국어`)
	ctx := context.Background()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, _ := st.AddDirectory(ctx, "/w", true, "", time.Now())
	_, err = st.PutDocument(ctx, store.Document{
		File:   core.File{DirID: d.ID, Path: "/w/words", Filename: "words", Created: time.Now(), Modified: time.Now(), Accessed: time.Now()},
		Chunks: []store.Chunk{{Text: strings.Join(words, " ")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// A word is its stem; a CJK word, its bigrams.
	terms := make([][]string, len(words))
	var all []string
	for i, w := range words {
		tokens.Terms(w, "", func(term string, _, _ int) error {
			terms[i] = append(terms[i], term)
			return nil
		})
		if !tokens.HasCJK(w) && (len(terms[i]) != 1 || terms[i][0] != tokens.Stem(w)) {
			t.Errorf("Terms(%q) = %q, want its stem %q", w, terms[i], tokens.Stem(w))
		}
		all = append(all, terms[i]...)
	}
	_, df, err := st.DocFreqs(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		for _, term := range terms[i] {
			if df[term] != 1 {
				t.Errorf("%q is a term of %q the index does not hold", term, w)
			}
		}
	}
}
