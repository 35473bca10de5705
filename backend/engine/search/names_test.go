package search

import (
	"fmt"
	"sync"
	"testing"
)

func words(t *testing.T, q string) []NameWord {
	t.Helper()
	p := newPlanText(q)
	return nameWords(p.names, true, func(string) float64 { return 1 })
}

func TestNameMatch(t *testing.T) {
	tn := DefaultTuning
	for _, c := range []struct {
		query, name, folders string
		min, max             float64
	}{
		{"fingerprints.txt", "fingerprints.txt", "", 1, 1},
		{"fingerprints", "fingerprints.txt", "", 1, 1},
		{"x11protocol", "x11protocol.txt", "", 1, 1},
		{"sample_password", "sample_password.txt", "", 1, 1},
		{"writer.docx", "writer.docx", "office", 1, 1},
		{"README.Debian git", "README.Debian", "docs/debian/git", 1, 1}, // the folder tells which README.Debian
		{"protocol", "x11protocol.txt", "", 0.6, 0.8},                   // 8 of 11 characters
		{"port", "report.pdf", "", 0.05, 0.1},                           // inside a word: half credit on both sides
		{"quart", "Q3-quarterly_report.xlsx", "", 0.2, 0.3},             // the start of a part, being typed
		{"quarterly report", "Q3-quarterly_report.xlsx", "", 0.85, 0.9}, // all but "Q3"
		{"budget plan", "myBudgetPlan2024.ods", "", 0.6, 0.7},
		{"boundary layer", "report.pdf", "", 0, 0},
		{"decoder", "decoder.go", "", 1, 1},
		{"decoded", "decoder.go", "", 0.12, 0.13},                      // the same stem only: half credit on both sides
		{"quarterly reports", "quarterly_report.xlsx", "", 0.45, 0.45}, // (1 + 1/2)/2 squared, times 12 of 15 characters
		{"bash license", "copyright", "bash", 0.05, 0.1},               // the parent folder, as part of the name
		{"bash license", "copyright", "bash/doc", 0, 0},                // a folder further up is not
	} {
		got, _ := nameMatch(words(t, c.query), c.name, c.folders, tn)
		if got < c.min-1e-9 || got > c.max+1e-9 {
			t.Errorf("nameMatch(%q, %q in %q) = %.3f, want %.2f to %.2f", c.query, c.name, c.folders, got, c.min, c.max)
		}
	}
}

// A query spells a name out when it has the name's words in the name's
// order, with or without the extension, in any case and with any
// separators; the same words in another order or number do not.
func TestQuerySpellsTheName(t *testing.T) {
	for _, c := range []struct {
		query, name, folders string
		want                 bool
	}{
		{"git README.Debian", "README.Debian", "docs/debian/git", true}, // after its folders, as a path
		{"git/README.Debian", "README.Debian", "docs/debian/git", true},
		{"debian/git/README.Debian", "README.Debian", "docs/debian/git", true},
		{"README.Debian git", "README.Debian", "docs/debian/git", false}, // not as a path is written
		{"it README.Debian", "README.Debian", "docs/debian/git", false},  // whole folders only
		{"bash README.Debian", "README.Debian", "docs/debian/git", false},
		{"gpg-agent/copyright", "copyright", "docs/gpg-agent", true},
		{"docs gpg agent copyright", "copyright", "docs/gpg-agent", true},
		{"x docs gpg agent copyright", "copyright", "docs/gpg-agent", false},
		{"1.5.2.5.txt", "1.5.2.5.txt", "", true},
		{"1.5.2.5", "1.5.2.5.txt", "", true},
		{"1.5.2.5.txt", "1.5.2.txt", "", false}, // the same words, one fewer 5
		{"1.5.2.5.txt", "1.5.5.2.txt", "", false},
		{"heap_test.go", "heap_test.go", "", true},
		{"heap test go", "heap_test.go", "", true},
		{"Heap_Test", "heap_test.go", "", true},
		{"test heap", "heap_test.go", "", false},
		{"README.Debian", "README.Debian", "", true}, // no extension: the whole name
		{"readme", "README.Debian", "", false},
		{"Übersicht", "uebersicht.pdf", "", false},
		{"übersicht", "Übersicht.pdf", "", true},
		{"", "a.txt", "", false},
	} {
		p := newPlanText(c.query)
		if got := readNames.names.get(c.name, parseName).spells(literal(p.names), c.folders); got != c.want {
			t.Errorf("%q spells %q: %v, want %v", c.query, c.name, got, c.want)
		}
	}
}

// Of names holding every word of the query, the one it spells out ranks
// first however the text scores, and the explanation says so.
func TestSpelledNameRanksFirst(t *testing.T) {
	p := newPlanText("1.5.2.5.txt")
	q := Query{Words: nameWords(p.names, true, func(string) float64 { return 1 }), Literal: literal(p.names), Mode: Keyword,
		Terms: []Term{{Text: "1.5.2.5", Weight: 1, IDF: 2}}}
	col := Collection{AvgLen: [numFields]float64{FieldText: 100, FieldName: 4}}
	cand := func(id int64, name string, tf int32) *Candidate {
		return &Candidate{ID: id, Name: name, TF: [][numFields]int32{{FieldText: tf}}, Len: [numFields]int32{FieldText: 100, FieldName: 4}}
	}
	cands := []*Candidate{cand(1, "1.5.2.txt", 2), cand(2, "1.5.5.2.txt", 2), cand(3, "1.5.2.5.txt", 1)}
	tn := DefaultTuning
	tn.NameExact = 0
	if got := Fuse(q, cands, col, tn); got[0].C.ID == 3 {
		t.Fatalf("without the bonus the spelled name is first already: the test shows nothing")
	}
	got := Fuse(q, cands, col, DefaultTuning)
	if got[0].C.ID != 3 || !got[0].Exact || got[1].Exact {
		t.Fatalf("spelled name not first alone: %+v", got)
	}
	x := explain(q, got[0], col, DefaultTuning)
	if x.NameExact != DefaultTuning.NameExact || x.Keyword != x.Text+x.NameWeight*(x.NameScore+x.NameExact) {
		t.Fatalf("explanation %+v does not add up", x)
	}
	if x := explain(q, got[1], col, DefaultTuning); x.NameExact != 0 {
		t.Fatalf("a name that is not spelled out has a bonus: %+v", x)
	}
}

// A query's words weigh by rarity: a name holding only the common half of
// a query is a weak match.
func TestNameMatchWeighsQueryWordsByRarity(t *testing.T) {
	idf := map[string]float64{"goroutin": 5, "schedul": 1}
	ws := nameWords([]string{"goroutine", "scheduler"}, true, func(s string) float64 { return idf[s] })
	rare, _ := nameMatch(ws, "goroutine.go", "", DefaultTuning)
	common, _ := nameMatch(ws, "scheduler.go", "", DefaultTuning)
	if rare <= 2*common {
		t.Fatalf("rare-word name %.3f, common-word name %.3f", rare, common)
	}
}

// Names are read once and shared by every search: matching covers copies,
// so one match never changes the next, from any goroutine, and the cache
// stays within its bound.
func TestReadNamesAreShared(t *testing.T) {
	tn := DefaultTuning
	cases := []struct{ query, name, folders string }{
		{"quarterly report", "Q3-quarterly_report.xlsx", "finance/2024"},
		{"quart", "Q3-quarterly_report.xlsx", "finance/2024"},
		{"bash license", "copyright", "bash"},
		{"2024 finance", "Q3-quarterly_report.xlsx", "finance/2024"},
	}
	want := make([]float64, len(cases))
	for i, c := range cases {
		p := parseName(c.name) // read afresh, never shared
		want[i], _ = matchParsed(words(t, c.query), p, c.folders, tn)
		if want[i] == 0 {
			t.Fatalf("%q does not match %q", c.query, c.name)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for r := range 200 {
				c := cases[(g+r)%len(cases)]
				if got, _ := nameMatch(words(t, c.query), c.name, c.folders, tn); got != want[(g+r)%len(cases)] {
					t.Errorf("round %d: %q in %q = %v, want %v", r, c.query, c.name, got, want[(g+r)%len(cases)])
					return
				}
			}
		})
	}
	wg.Wait()

	c := memo[*parsedName]{limit: 3}
	for i := range 10 {
		n := fmt.Sprintf("file%d.txt", i)
		if p := c.get(n, parseName); p.ext != "txt" || c.get(n, parseName) != p {
			t.Fatalf("%s: %+v not kept", n, p)
		}
		if len(c.m) > 3 {
			t.Fatalf("%d names kept, bound 3", len(c.m))
		}
	}
}
