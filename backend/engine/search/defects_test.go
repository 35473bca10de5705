package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"trove/backend/store"
)

// A pasted page is a normal semantic query: its telling words count even
// when they come after the first thousand characters.
func TestLongQueryKeepsItsTellingWords(t *testing.T) {
	docs := []testDoc{{"target.txt", []string{"The quokka is a small wallaby that lives on Rottnest Island."}}}
	for i := range 30 {
		docs = append(docs, testDoc{fmt.Sprintf("general%02d.txt", i), []string{
			"General notes about the weather, the garden, the kitchen and the office, written on a Monday."}})
	}
	e := testIndex(t, docs)
	// A page of prose whose words the index lacks, then the telling ones.
	prose := strings.Fields(`Marsupials are herbivorous and mostly nocturnal mammals, carrying their young in pouches;
		several species browse grasses, leaves and shrubs near coastal scrubland, resting by day in dense vegetation.`)
	var b strings.Builder
	for i := 0; b.Len() < 9_900; i++ {
		b.WriteString(prose[i%len(prose)] + " ")
	}
	q := b.String() + "quokka Rottnest"
	if n := len([]rune(q)); n < 9_900 || n > 10_000 {
		t.Fatalf("query of %d characters", n)
	}
	for _, mode := range []Mode{Hybrid, Keyword} {
		rs := search(t, e, Request{Query: q, Mode: mode})
		if len(rs) == 0 || paths(rs)[0] != "target.txt" {
			t.Errorf("%s: top results %v, want target.txt first", mode, paths(rs)[:min(3, len(rs))])
		}
	}
}

// A pasted passage is text: its dashes and quotes are not exclusions and
// phrases, so it finds the file it was copied from.
func TestPastedPassageFindsItsFile(t *testing.T) {
	source := `// runtime.GOROOT doesn't know where GOROOT is (perhaps because the test
// binary was built with -trimpath). Say "go env GOROOT" and trust what it
// prints; if it prints nothing, the user may fix what they broke, or ask.
func findGOROOT() (string, error) { return cfg.KnownEnv("GOROOT"), nil }`
	docs := []testDoc{{"testenv.go", []string{source}}}
	for i := range 20 {
		docs = append(docs, testDoc{fmt.Sprintf("other%02d.go", i), []string{
			"// the user may set GOROOT to the wrong directory; the test binary knows where it was built"}})
	}
	e := testIndex(t, docs)
	for _, mode := range []Mode{Hybrid, Keyword} {
		rs := search(t, e, Request{Query: source, Mode: mode})
		if len(rs) == 0 || paths(rs)[0] != "testenv.go" {
			t.Errorf("%s: top results %v, want testenv.go first", mode, paths(rs)[:min(3, len(rs))])
		}
	}
}

// A pasted passage found as it stands gets no feedback words: they would
// pull in its source's neighbours. A question gets them, short or long.
func TestFoundPassageGetsNoFeedback(t *testing.T) {
	var docs []testDoc
	for i := range 6 {
		docs = append(docs, testDoc{fmt.Sprintf("roof%d.txt", i), []string{fmt.Sprintf(
			"The roof leak above the bedroom came back after storm %d; the gutter and the flashing were replaced, "+
				"and the insurer paid for the plaster, the paint and the carpet of the bedroom below the roof. "+
				"The contractor inspected the chimney, the valley, the skylight and the shingles, found the membrane "+
				"torn near the ridge, sealed the nails, cleared the downpipe and the drain, and wrote a report for "+
				"the insurer listing the damage to the ceiling, the insulation, the joists and the wallpaper.", i)}})
	}
	// Words of the long question that the roof files lack, no file holding
	// most of them.
	filler := strings.Repeat("Notes on the garden, the kitchen, the weather, the neighbours and the car. ", 6)
	for i, text := range []string{"Writing to ask about the old house.", "The builder came twice last year.",
		"He said everything looked perfectly fine.", "A heavy time for him."} {
		docs = append(docs, testDoc{fmt.Sprintf("diary%d.txt", i), []string{text + " " + filler}})
	}
	e := testIndex(t, docs)
	question := "why does the roof leak above the bedroom after every storm"
	passage := "The roof leak above the bedroom came back after storm 3; the gutter and the flashing were replaced, " +
		"and the insurer paid for the plaster, the paint and the carpet of the bedroom below the roof."
	long := "I am writing to ask why the roof of our old house starts to leak above the bedroom after every " +
		"heavy storm, even though a builder came twice last year and said that everything up there " +
		"looked perfectly fine to him at the time"
	for _, c := range []struct {
		query    string
		feedback bool
	}{{question, true}, {passage, false}, {long, true}} {
		rs := search(t, e, Request{Query: c.query, Explain: true})
		if len(rs) == 0 || rs[0].Explain == nil {
			t.Fatalf("%q: no explained results", c.query)
		}
		if got := len(rs[0].Explain.Feedback) > 0; got != c.feedback {
			t.Errorf("%q: feedback words %q, want some: %v", c.query, rs[0].Explain.Feedback, c.feedback)
		}
	}
}

// In an index large enough for pruning (commonMin files), a common word
// still counts in the score of the files that are candidates for a rare
// one: here it is all that tells them apart.
func TestPruningKeepsEveryWordInTheScore(t *testing.T) {
	docs := []testDoc{
		{"first.txt", []string{"zebra crossing painted near the station last spring"}},
		{"second.txt", []string{"zebra crossing painted near the common last spring"}},
	}
	for i := range commonMin {
		text := fmt.Sprintf("A note, number %d.", i)
		if i%5 < 3 { // in 60% of the files: common enough to be pruned, not so common that it says nothing
			text = fmt.Sprintf("A common note, number %d.", i)
		}
		docs = append(docs, testDoc{fmt.Sprintf("filler/%04d.txt", i), []string{text}})
	}
	e := testIndex(t, docs)
	rs := search(t, e, Request{Query: "zebra common", Mode: Keyword, Limit: 3})
	if got := paths(rs); len(got) < 2 || got[0] != "second.txt" || !(rs[0].Keyword > rs[1].Keyword) {
		t.Fatalf("got %v (keyword scores %v)", got, keywordScores(rs))
	}
}

func keywordScores(rs []Result) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.Keyword
	}
	return out
}

// Words that feedback adds do not make a file match the query: a file
// holding none of the typed words needs to be close in meaning, as for
// any other file without a keyword match.
func TestFeedbackWordsAloneNeedMeaning(t *testing.T) {
	var docs []testDoc
	for i := range 5 {
		docs = append(docs, testDoc{fmt.Sprintf("roof%d.txt", i), []string{fmt.Sprintf(
			"The roof leak above the bedroom came back after storm %d; the xylophone marmalade fund pays for it.", i)}})
	}
	docs = append(docs, testDoc{"concert.txt", []string{"Xylophone concert with marmalade at breakfast, tickets sold out."}})
	e := testIndex(t, docs)
	rs := search(t, e, Request{Query: "roof leak bedroom", Limit: 20})
	if slices.Contains(paths(rs), "concert.txt") {
		t.Fatalf("a file matching only feedback words, far in meaning, is a result: %v", paths(rs))
	}
}

// The path filter holds before the results are cut to the limit.
func TestPathGlobAppliesBeforeTheLimit(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"a/notes.md", []string{"budget meeting notes, budget budget budget"}},
		{"b/plan.txt", []string{"budget plan"}},
	})
	for _, limit := range []int{1, 10} {
		rs := search(t, e, Request{Query: "budget", Limit: limit, Filters: Filters{PathGlob: "*.txt"}})
		if got := paths(rs); len(got) != 1 || got[0] != "b/plan.txt" {
			t.Errorf("limit %d: %v, want [b/plan.txt]", limit, got)
		}
		rs = search(t, e, Request{Query: "budget", Limit: limit, Filters: Filters{PathGlob: "b/**"}})
		if got := paths(rs); len(got) != 1 || got[0] != "b/plan.txt" {
			t.Errorf("limit %d, glob b/**: %v, want [b/plan.txt]", limit, got)
		}
	}
}

// A trailing stopword is not the start of a name, nor anything else.
func TestTrailingStopwordChangesNothing(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"theory.txt", []string{"Boundary layer theory for laminar flow."}},
		{"the-boundary.md", []string{"Notes on the boundary layer of a flat plate."}},
		{"thermal.txt", []string{"The thermal boundary layer and heat transfer."}},
		{"layers.txt", []string{"Layer upon layer of paint."}},
		{"other.txt", []string{"Boundary conditions of the problem."}},
	})
	a := search(t, e, Request{Query: "boundary layer", Limit: 5})
	b := search(t, e, Request{Query: "boundary layer of the", Limit: 5})
	if !slices.Equal(paths(a), paths(b)) {
		t.Fatalf("\"boundary layer\" %v\n\"boundary layer of the\" %v", paths(a), paths(b))
	}
	for i := range a {
		if math.Abs(a[i].Score-b[i].Score) > 1e-9 {
			t.Fatalf("scores differ at %d: %v vs %v", i, a[i].Score, b[i].Score)
		}
	}
}

// A file's semantic score is that of its closest passage, however it was
// found: here the closest of 40 passages is the last, and the file is
// found by a keyword only (250 other files are closer in meaning).
func TestSemanticScoreDoesNotDependOnHowTheFileWasFound(t *testing.T) {
	q := "glacier ice melting in the alps xylophone"
	long := make([]string, 40)
	long[0] = "A xylophone, bought second hand."
	for i := 1; i < 39; i++ {
		long[i] = fmt.Sprintf("Inventory line %d: screws, nails, washers and hinges.", i)
	}
	long[39] = "Alpine glaciers lose ice every summer."
	docs := []testDoc{{"long.txt", long}}
	for i := range 250 {
		docs = append(docs, testDoc{fmt.Sprintf("near/%03d.txt", i), []string{"glacier ice melting in the alps, " + fmt.Sprint(i)}})
	}
	e := testIndex(t, docs)
	vs, err := e.Embedder().Embed(context.Background(), append([]string{q}, long...))
	if err != nil {
		t.Fatal(err)
	}
	sims := make([]float64, len(long))
	for p := range long {
		for i := range vs[0] {
			sims[p] += float64(vs[0][i] * vs[p+1][i])
		}
	}
	if slices.Max(sims) != sims[39] || slices.Max(sims[:32])+0.05 > sims[39] {
		t.Fatalf("the test needs passage 39 to be the closest by a margin: %.3f", sims)
	}
	want := math.Exp(-DefaultTuning.DistanceScale * Distance(sims[39]))
	rs := search(t, e, Request{Query: q, Limit: 300})
	for _, r := range rs {
		if r.File.Filename == "long.txt" {
			if math.Abs(r.Semantic-want) > 0.02 {
				t.Fatalf("semantic score %.3f, want about %.3f (its closest passage)", r.Semantic, want)
			}
			return
		}
	}
	t.Fatalf("long.txt not found: %v", paths(rs))
}

// A tuning given to the engine is used as given, whatever its fields.
func TestEngineUsesItsTuning(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"report.txt", []string{"quarterly numbers"}},
		{"notes.txt", []string{"the report of the quarterly numbers, report report"}},
	})
	rs := search(t, e, Request{Query: "report", Mode: Keyword})
	if paths(rs)[0] != "report.txt" {
		t.Fatalf("default tuning: %v, want the name first", paths(rs))
	}
	tn := DefaultTuning
	tn.NameWeight = 0
	tn.Fields[FieldName].Weight, tn.Fields[FieldTitle].Weight = 0, 0
	tn.FeedbackTerms = 0
	e.Tuning = &tn
	rs = search(t, e, Request{Query: "report", Mode: Keyword})
	if paths(rs)[0] != "notes.txt" {
		t.Fatalf("without name weight: %v, want the text match first", paths(rs))
	}
}

// A pasted run of thousands of letters (10,000 "é" fold to "eee…") is not
// a misspelt word: its words one edit away would fill gigabytes.
func TestVeryLongWordsAreNotCorrected(t *testing.T) {
	for _, w := range []string{strings.Repeat("e", 10000), strings.Repeat("ab", 21)} {
		if correctable(w) {
			t.Errorf("a %d-letter word is corrected", len(w))
		}
	}
	if !correctable("pneumonoultramicroscopic") {
		t.Error("a long dictionary word is not corrected")
	}
}

// A correction's counts are each table's own: the word list's count (of
// both tables at once) does not stand in for a table that lacks the word.
func TestCorrectionCountsEachTable(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"a.txt", []string{"the garden wall"}},
		{"b.txt", []string{"a garden path"}},
		{"c.txt", []string{"garden tools"}},
	})
	s := newSearcher(e, Request{Query: "gardn", Mode: Keyword}, newPlanText("gardn"), store.FileFilter{})
	if err := s.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(s.terms) != 2 || s.terms[1].text != "garden" {
		t.Fatalf("terms %+v, want the correction garden", s.terms)
	}
	if text, files := s.df[textTable]["garden"], s.df[fileTable]["garden"]; text != 3 || files != 0 {
		t.Errorf("garden in %d texts and %d cards, want 3 and 0", text, files)
	}
}

// Of two files holding the query's words as often, in texts as long, the
// one where they stand together ranks first, and its explanation says how
// much that counted; where they stand apart, that part is a small fraction
// of it (it falls with the square of the distance).
func TestWordsTogetherRankFirst(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"apart.txt", []string{"The leak came from the roof, and the file said nothing about a descriptor of it."}},
		{"together.txt", []string{"The roof came down, and the report said nothing about a file descriptor leak in it."}},
		{"other.txt", []string{"Notes about the garden and the kitchen, written on a Monday afternoon."}},
	})
	rs := search(t, e, Request{Query: "file descriptor leak", Mode: Keyword, Explain: true})
	if got := paths(rs); len(got) < 2 || got[0] != "together.txt" || got[1] != "apart.txt" {
		t.Fatalf("got %v (keyword scores %v)", got, keywordScores(rs))
	}
	if x := rs[0].Explain; x == nil || !(x.Proximity > 0) || x.Proximity > DefaultTuning.Proximity || x.Proximity >= x.Text {
		t.Errorf("together.txt explanation %+v: want a proximity part above 0, at most %v, inside text", x, DefaultTuning.Proximity)
	}
	if x := rs[1].Explain; x == nil || rs[0].Explain == nil || !(x.Proximity < rs[0].Explain.Proximity/10) {
		t.Errorf("apart.txt explanation %+v: its words stand apart, want a proximity part under a tenth of together.txt's", x)
	}
}

// A word of a script whose letters carry marks of their own (й, ё, ά, ば)
// is looked up as the index holds it: folded like é, "новый" and "отчёт"
// were words the index lacked, and a keyword search for them found
// nothing.
func TestMarkedLettersAreTheirOwn(t *testing.T) {
	e := testIndex(t, []testDoc{
		{"report.txt", []string{"мой новый отчёт о продажах"}},
		{"greeting.txt", []string{"с новым годом и удачи"}},
		{"ja.txt", []string{"例えば バグ の 報告"}},
		{"ja2.txt", []string{"ハク は 名前"}},
	})
	for q, want := range map[string]string{"новый": "report.txt", "отчёт": "report.txt", "バグ": "ja.txt"} {
		rs := search(t, e, Request{Query: q, Mode: Keyword, Limit: 10})
		if got := paths(rs); len(got) != 1 || got[0] != want {
			t.Errorf("%q: got %v, want only %s", q, got, want)
		}
	}
}
