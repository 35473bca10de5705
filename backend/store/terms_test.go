package store

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Proximity counts each two neighbouring occurrences of different query
// phrases, d tokens apart, as the other's weight over d², in the text.
// ph is the phrase of words.
func ph(words ...string) Phrase { return Phrase{Words: words} }

func TestTermMatchesProximity(t *testing.T) {
	s, dir := openWithDir(t, "/n")
	near, err := s.PutDocument(ctx, doc(dir, "/n/near.txt", "a file descriptor leak was found"))
	if err != nil {
		t.Fatal(err)
	}
	apart, err := s.PutDocument(ctx, doc(dir, "/n/apart.txt", "the file was closed and then a descriptor went missing, and much later a leak"))
	if err != nil {
		t.Fatal(err)
	}
	weights := []float64{1, 2, 4} // file, descriptor, leak
	ms, _, err := s.TermMatches(ctx, ContentTable, Any(ph("file"), ph("descriptor"), ph("leak")),
		TermScope{Only: []int64{near, apart}, Lengths: true, Near: weights})
	if err != nil || len(ms) != 2 {
		t.Fatalf("matches %+v, %v", ms, err)
	}
	got := map[int64][]float32{}
	for _, m := range ms {
		got[m.FileID] = m.Near
	}
	// near.txt: file(1) descriptor(2) leak(3): each pair one token apart.
	want := []float32{2, 1 + 4, 2}
	if !close32(got[near], want) {
		t.Errorf("near.txt proximity %v, want %v", got[near], want)
	}
	// apart.txt: file(1) descriptor(7) leak(14): 6 and 7 tokens apart.
	want = []float32{2.0 / 36, 1.0/36 + 4.0/49, 2.0 / 49}
	if !close32(got[apart], want) {
		t.Errorf("apart.txt proximity %v, want %v", got[apart], want)
	}
	// Without weights nothing is computed; a phrase next to itself counts
	// nothing.
	ms, _, err = s.TermMatches(ctx, ContentTable, Any(ph("file"), ph("descriptor"), ph("leak")), TermScope{Only: []int64{near}})
	if err != nil || len(ms) != 1 || ms[0].Near != nil {
		t.Errorf("without weights: %+v, %v", ms, err)
	}
	same, err := s.PutDocument(ctx, doc(dir, "/n/same.txt", "leak leak leak"))
	if err != nil {
		t.Fatal(err)
	}
	ms, _, err = s.TermMatches(ctx, ContentTable, Any(ph("file"), ph("leak")), TermScope{Only: []int64{same}, Near: []float64{1, 1}})
	if err != nil || len(ms) != 1 || !close32(ms[0].Near, []float32{0, 0}) {
		t.Errorf("one word repeated: %+v, %v", ms, err)
	}
}

func close32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

// Counting a conjunction's instances phrase by phrase gives what counting
// them in position order gives: counts per column, lengths, proximity,
// with phrases that overlap and repeat.
func TestConjunctionCountsAsInstances(t *testing.T) {
	s, dir := openWithDir(t, "/c")
	texts := []string{
		"the command line takes options; a command line option is a line of a command",
		"line after line, and one command with no options at all but a line",
		"options: command, line, command line, line command",
	}
	for i, text := range texts {
		doc := doc(dir, fmt.Sprintf("/c/%d.txt", i), text)
		doc.File.Title = "command line " + strings.Repeat("options ", i)
		if _, err := s.PutDocument(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	phrases := []Phrase{ph("command"), ph("line"), ph("option"), ph("command", "line"), ph("line")}
	for _, table := range []TermTable{ContentTable, FileTable} {
		scope := TermScope{Lengths: true, Near: []float64{1, 2, 3, 0.5, 1}}
		// Counted in order (InstCount) over the files holding all
		// phrases, and phrase by phrase as an expression of All.
		all, _, err := s.TermMatches(ctx, table, All(phrases...), TermScope{})
		if err != nil || len(all) == 0 {
			t.Fatalf("%v: %d matches, %v", table, len(all), err)
		}
		inOrder := scope
		for _, m := range all {
			inOrder.Only = append(inOrder.Only, m.FileID)
		}
		slices.Sort(inOrder.Only)
		want, wantStats, err := s.TermMatches(ctx, table, Any(phrases...), inOrder)
		if err != nil || len(want) != len(all) {
			t.Fatalf("%v: %d matches, %v", table, len(want), err)
		}
		got, stats, err := s.TermMatches(ctx, table, All(phrases...), scope)
		if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(stats, wantStats) {
			t.Errorf("%v: phrase by phrase %+v %+v (%v), in order %+v %+v", table, got, stats, err, want, wantStats)
		}
		// The last phrase held: it counts once in the first column, the
		// others as they were.
		scope.HeldLast, scope.Near = true, nil
		held, _, err := s.TermMatches(ctx, table, All(phrases...), scope)
		if err != nil || len(held) != len(want) {
			t.Fatalf("%v: held last: %d matches (%v), want %d", table, len(held), err, len(want))
		}
		for i, m := range held {
			w := slices.Clone(want[i].TF)
			clear(w[4*m.Cols:])
			w[4*m.Cols] = 1
			if !slices.Equal(m.TF, w) {
				t.Errorf("%v: held last: counts %v, want %v", table, m.TF, w)
			}
		}
	}
}

// One phrase in the text (a word or a prefix) is counted by its number of
// instances alone; the count is what the instances say, with proximity
// asked for or not.
func TestSinglePhraseCountsItsInstances(t *testing.T) {
	s, dir := openWithDir(t, "/c")
	texts := map[string]int{ // text -> instances of leak*
		"a leak, leaking, leaks and the leaky tap": 4,
		"no such word": 0,
		"leak":         1,
	}
	ids := map[int64]int{}
	i := 0
	for text, n := range texts {
		id, err := s.PutDocument(ctx, doc(dir, fmt.Sprintf("/c/%d.txt", i), text))
		if err != nil {
			t.Fatal(err)
		}
		ids[id] = n
		i++
	}
	for _, scope := range []TermScope{{}, {Lengths: true}, {Near: []float64{1}}} {
		ms, _, err := s.TermMatches(ctx, ContentTable, Any(Phrase{Words: []string{"leak"}, Prefix: true}), scope)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 2 {
			t.Fatalf("%+v: %d matches, want 2", scope, len(ms))
		}
		for _, m := range ms {
			if got := m.Freq(0, 0); got != int32(ids[m.FileID]) {
				t.Errorf("%+v: file %d counts %d instances, want %d", scope, m.FileID, got, ids[m.FileID])
			}
		}
	}
}

// Lengths reads from FTS5's column sizes what a walk reports with
// Lengths, in both tables, sizes of one to three varint bytes alike.
func TestLengthsAreTheWalksLengths(t *testing.T) {
	s, dir := openWithDir(t, "/l")
	var ids []int64
	for i, n := range []int{1, 127, 128, 16383, 16384, 40000} {
		dc := doc(dir, fmt.Sprintf("/l/%d.txt", i), "leak "+strings.Repeat("word ", n))
		dc.File.Summary = strings.Repeat("leak summary ", i*30)
		id, err := s.PutDocument(ctx, dc)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, table := range []TermTable{ContentTable, FileTable} {
		ms, _, err := s.TermMatches(ctx, table, Any(ph("leak")), TermScope{Only: ids, Lengths: true})
		if err != nil || len(ms) != len(ids) {
			t.Fatalf("%v: %d matches, %v", table, len(ms), err)
		}
		got, err := s.Lengths(ctx, table, append(ids, 1<<40))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(ids) {
			t.Errorf("%v: %d files with lengths, want %d", table, len(got), len(ids))
		}
		for _, m := range ms {
			if !slices.Equal(got[m.FileID], m.Len) {
				t.Errorf("%v: file %d lengths %v, the walk says %v", table, m.FileID, got[m.FileID], m.Len)
			}
		}
	}
	if got, _ := s.Lengths(ctx, ContentTable, ids[len(ids)-1:]); got[ids[len(ids)-1]][0] <= 16383 {
		t.Errorf("the longest text's size %v needs no three-byte varint", got)
	}
	if _, n := varint([]byte{0x81}); n != 0 {
		t.Errorf("a cut varint decoded")
	}
}

// PhraseFiles finds, for each phrase, the files holding it within the
// filter: the files TermMatches finds with a count above zero.
func TestPhraseFilesAreTheMatchesOfEachPhrase(t *testing.T) {
	s, dir := openWithDir(t, "/p")
	texts := []string{
		"a file descriptor leak",
		"the leak of a descriptor file",
		"nothing of the kind",
		"descriptor tables, descriptor files",
	}
	for i, text := range texts {
		ext := ".txt"
		if i == 3 {
			ext = ".md"
		}
		if _, err := s.PutDocument(ctx, doc(dir, fmt.Sprintf("/p/%d%s", i, ext), text)); err != nil {
			t.Fatal(err)
		}
	}
	phrases := []Phrase{ph("leak"), ph("descriptor", "file"), ph("descriptor"), ph("absent")}
	for _, filter := range []FileFilter{{}, {Exts: []string{".md"}}} {
		got, err := s.PhraseFiles(ctx, ContentTable, phrases, filter)
		if err != nil || len(got) != len(phrases) {
			t.Fatalf("%+v: %v, %v", filter, got, err)
		}
		for i, p := range phrases {
			ms, _, err := s.TermMatches(ctx, ContentTable, Any(p), TermScope{Filter: filter})
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			for _, m := range ms {
				want = append(want, m.FileID)
			}
			slices.Sort(want)
			slices.Sort(got[i])
			if !slices.Equal(got[i], want) {
				t.Errorf("%+v: %v in %v, want %v", filter, p, got[i], want)
			}
		}
		if filter.Empty() && (len(got[0]) != 2 || len(got[1]) != 2 || len(got[2]) != 3 || len(got[3]) != 0) {
			t.Errorf("files per phrase %v, want 2, 2 (\"descriptor files\" stems alike), 3 and 0", got)
		}
	}
}
