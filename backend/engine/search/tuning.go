package search

// FieldTuning weighs one field in BM25F.
type FieldTuning struct {
	Weight float64 // occurrences here count this many times one in the text
	B      float64 // length normalisation, 0 (none) to 1 (full)
}

// Tuning holds the ranking's knobs. The defaults are general choices
// (textbook BM25 parameters, field weights by how much a field says about
// a file), checked on every collection of bench/quality and on
// bench/knownitem, and written in docs/api.md; nothing is tuned per query
// or per collection.
type Tuning struct {
	// K1 saturates term frequency in BM25F.
	K1 float64
	// Fields weigh text, name, folders, title, keywords and summary.
	Fields [numFields]FieldTuning
	// NameWeight is how much the name match (0 to 1) counts beside the
	// text's BM25F (0 to 1) in keyword_score.
	NameWeight float64
	// NameQueryPower sharpens the query side of the name match: a name
	// that accounts for half of the query is worth a quarter at 2.
	NameQueryPower float64
	// NameSubstringCredit is what a query word found inside a word of a
	// name ("port" in report) is worth against a whole part.
	NameSubstringCredit float64
	// NameStemCredit is what a query word worth a name word only by its
	// stem ("decoded" for decoder.go) is worth against one spelt alike.
	NameStemCredit float64
	// NameExact is added to the name match of a file whose name the query
	// spells out, word for word in order ("1.5.2.5.txt", "heap_test"): of
	// names that hold all the query's words, the one typed comes first.
	NameExact float64
	// NameFolderCredit is what a query word naming one of the file's
	// folders is worth against a word of its name.
	NameFolderCredit float64
	// DistanceScale scales the Euclidean distance between unit vectors
	// before semantic_score = exp(-distance): larger makes meaning count
	// less against keywords.
	DistanceScale float64
	// SemanticOnlyMin is the cosine similarity a file without any keyword
	// match needs to be a result of a hybrid search.
	SemanticOnlyMin float64
	// Pseudo-relevance feedback: words typical of the best FeedbackDocs
	// files (found in at least FeedbackMinDF of them) are added, up to
	// FeedbackTerms, sharing FeedbackWeight of the query's weight.
	// FeedbackTerms 0 turns it off.
	FeedbackDocs, FeedbackTerms, FeedbackMinDF int
	FeedbackWeight                             float64
	// FeedbackMinText is the fewest words the feedback passages must hold
	// together: feedback estimates a distribution of words, and a few
	// dozen words estimate noise.
	FeedbackMinText int
	// FeedbackMinWords is the fewest typed words a query needs for
	// feedback: a name or a few remembered words mean one file, and
	// feedback would pull its neighbours in.
	FeedbackMinWords int
	// FeedbackFoundShare: a pasted passage (query.PassageWords) whose best
	// first-pass file holds this share of its typed words' weight was
	// found as it stands, and gets no feedback (0: no passage gets it).
	FeedbackFoundShare float64
	// VectorFeedback moves the query vector toward the feedback passages
	// (Rocchio): q + VectorFeedback * their mean.
	VectorFeedback float64
	// Proximity weighs how close the query's words stand to each other in
	// a file's text against BM25F, which ignores where they stand.
	Proximity float64
	// ShortTextB is the text's b for a query of at most ShortWords words
	// (0: the same b for every query).
	ShortWords int
	ShortTextB float64
	// Presence is the share of a term's BM25F weight a file earns by
	// holding it at all, the rest growing with its frequency (BM25+'s
	// lower bound, Lv and Zhai 2011); ShortPresence is Presence for a
	// query of at most ShortWords words.
	Presence      float64
	ShortPresence float64
	// OtherForm is what an occurrence of a query word in the text counts
	// when it is in another language's form only, not as written (1: as
	// much).
	OtherForm float64
	// QueryTerms bounds the words a long query keeps for the keyword side:
	// those with the most weight (occurrences times IDF). The embedder
	// reads the whole text.
	QueryTerms int
}

// DefaultTuning is the ranking Trove ships with.
var DefaultTuning = Tuning{
	K1: 1.2,
	Fields: [numFields]FieldTuning{
		FieldText:     {Weight: 1, B: 0.75},
		FieldName:     {Weight: 1, B: 0.5},
		FieldFolders:  {Weight: 0.5, B: 0.5},
		FieldTitle:    {Weight: 2, B: 0.5},
		FieldKeywords: {Weight: 0.5, B: 0.5},
		FieldSummary:  {Weight: 0.5, B: 0.75},
	},
	NameWeight:          1,
	NameQueryPower:      2,
	NameSubstringCredit: 0.5,
	// A name is typed as it is written. Chosen on the odd known-item
	// queries (MRR@10 0.714 at 1, 0.716 at 0.5 and at 0.25; 0.694, 0.700,
	// 0.699 on the even ones); the collections do not move.
	NameStemCredit:   0.5,
	NameExact:        0.25,
	NameFolderCredit: 1,
	// Meaning weighs half what it did at 1: chosen on the odd queries of
	// the collections (hybrid ratio 1.064 at 1, 1.058 at 1.5, 1.074 at 2,
	// 1.050 at 2.5, 1.048 at 3), 1.033 to 1.039 on the even ones, where
	// keyword-only search had overtaken hybrid once pasted questions were
	// read as text; the known-item task does not move.
	DistanceScale: 2,
	// With the builtin model, passages related to a query without sharing
	// a word with it score 0.18-0.40 and unrelated ones 0.00-0.21.
	SemanticOnlyMin:  0.3,
	FeedbackDocs:     5,
	FeedbackTerms:    10,
	FeedbackMinDF:    2,
	FeedbackWeight:   0.2,
	FeedbackMinText:  300,
	FeedbackMinWords: 5,
	// A pasted passage's source holds all its words; no best file of the
	// collections' long questions holds nine tenths of theirs.
	FeedbackFoundShare: 0.9,
	VectorFeedback:     1,
	// A small bonus: it lifts keyword ranking on every collection of
	// bench/quality, while more of it lets closeness outweigh what BM25F
	// and meaning say. Chosen on the odd queries: the collections' hybrid
	// ratio 1.072 at 0.05, 1.078 at 0.075 and 0.1, 1.073 at 0.15 (NPL's
	// even half falls below its baseline there); remembered phrases
	// (bench/knownitem) gain at each step, on held-out queries too, while
	// a name with a word loses a little (docs/ranking-notes.md).
	Proximity: 0.075,
	// A few words typed are mostly words remembered from one file, and a
	// long file holds more words by chance: its length counts for more.
	// Chosen on the odd queries (known-item MRR@10 0.716 at the text's
	// 0.75, 0.719 at 0.9 or 1 for up to 4 words, 0.719 for up to 8; the
	// collections' ratio 1.074, 1.072, 1.068, 1.066); on the even ones
	// 0.700 becomes 0.706 and the collections' 1.040 1.039. Short topical
	// questions (CACM's) lose a little of what they gain at 0.75.
	ShortWords: 4,
	ShortTextB: 0.9,
	// For the same reason, holding each of a few typed words counts for
	// more than saying one of them often. Chosen on the odd queries
	// (known-item MRR@10 0.653 at 0, 0.659 at 0.15, 0.662 at 0.3, 0.665 at
	// 0.5; the collections' ratio 1.078, 1.081, 1.078, 1.076): on the even
	// ones 0.634 becomes 0.641 and the collections' 1.040 stays; seed 3's
	// held-out queries go from 0.650 / 0.668 to 0.655 / 0.669. Longer
	// queries keep plain BM25F: the collections' questions lose at 0.3.
	ShortPresence: 0.3,
	// Half: a word in another form still counts (stems are there to find
	// it), below the word as written. On bench/languages' exact words
	// MRR@10 went from 0.954 / 0.973 (odd / even queries) at 1 to 0.973 /
	// 0.982 at 0.5, 0.979 / 0.983 at 0.25 and 0.985 / 0.983 at 0; at 0 a
	// word of a query typed in another inflection than its file's would
	// count for nothing. Known-item MRR@10 0.649 became 0.652; the
	// collections' ratio 1.054 became 1.052 (odd 1.078 to 1.076, even
	// 1.031 both).
	OtherForm:  0.5,
	QueryTerms: 32,
}

// forWords returns the tuning for a query of n words.
func (t Tuning) forWords(n int) Tuning {
	if n > 0 && n <= t.ShortWords {
		t.Fields[FieldText].B = t.ShortTextB
		t.Presence = t.ShortPresence
	}
	return t
}
