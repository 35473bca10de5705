package store

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"
)

// putIn indexes a file of one passage in a language.
func putIn(t *testing.T, s *Store, dir int64, path, lang, text string) int64 {
	t.Helper()
	d := doc(dir, path, text)
	d.Lang = lang
	id, err := s.PutDocument(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A file's words are found in their other forms in the file's language,
// CJK words inside a sentence are found, and English is stemmed as
// before, in an index holding several languages.
func TestTextTokenizerLanguages(t *testing.T) {
	s, dir := openWithDir(t, "/l")
	put := func(path, lang, text string) int64 { return putIn(t, s, dir, path, lang, text) }
	de := put("/l/de.txt", "de", "Die Dateien wurden gestern gelöscht.")
	fr := put("/l/fr.txt", "fr", "Les fichiers ont été supprimés hier, running.")
	ja := put("/l/ja.txt", "ja", "東京都に住む人々は毎朝電車に乗ります。")
	zh := put("/l/zh.txt", "zh", "我们在北京大学学习中文")
	en := put("/l/en.txt", "", "The runner was running through roofs.")
	for _, c := range []struct {
		words []string
		want  []int64
	}{
		{[]string{"Datei"}, []int64{de}},
		{[]string{"gelöscht"}, []int64{de}},
		{[]string{"geloscht"}, []int64{de}},
		{[]string{"supprimé"}, []int64{fr}},
		{[]string{"fichier"}, []int64{fr}},
		{[]string{"京都"}, []int64{ja}},
		{[]string{"毎朝電車"}, []int64{ja}},
		{[]string{"北京大学"}, []int64{zh}},
		{[]string{"大学"}, []int64{zh}},
		{[]string{"京大"}, []int64{zh}},
		{[]string{"住"}, nil}, // a lone character is a term only where it stands alone
		{[]string{"京都", "住む"}, nil},
		{[]string{"runs"}, []int64{fr, en}}, // an English word in French text
	} {
		if got := matchedFiles(t, s, ph(c.words...)); !slices.Equal(got, c.want) {
			t.Errorf("%q matched %v, want %v", c.words, got, c.want)
		}
	}
	if got := s.Languages(); !slices.Equal(got, []string{"de", "fr", "ja", "zh"}) {
		t.Errorf("languages %q", got)
	}
	want := map[string]int{"Datei": 1, "Dateien": 1, "fichier": 1, "京都": 1, "北京大学": 1, "京都大学": 0, "runs": 2, "nothing": 0}
	var words []string
	for w := range want {
		words = append(words, w)
	}
	df, err := s.WordDocFreqs(ctx, words)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(df, want) {
		t.Errorf("word document frequencies %v, want %v", df, want)
	}
}

// An index made before languages were told apart is indexed again when it
// opens: its files get their language, and their text the new terms.
func TestLanguagesMigration(t *testing.T) {
	s, dir := openTemp(t)
	d, err := s.AddDirectory(ctx, "/m", true, "", time.Unix(1_700_000_000, 0))
	if err != nil {
		t.Fatal(err)
	}
	de := "Die Dateien auf dem Server wurden gestern von einem Kollegen gelöscht, und niemand weiß, warum das passiert ist."
	ja := "東京都に住む人々は毎朝電車に乗ります。"
	for path, text := range map[string]string{"/m/de.txt": de, "/m/ja.txt": ja} {
		if _, err := s.PutDocument(ctx, doc(d.ID, path, text)); err != nil {
			t.Fatal(err)
		}
	}
	rollBack(t, s, 8) // before languages, with the text as it indexed it
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	langs, err := queryList[string](ctx, s.rdb(), `SELECT lang FROM files ORDER BY path`)
	if err != nil || !slices.Equal(langs, []string{"de", "ja"}) {
		t.Errorf("languages %q, %v; want de, ja", langs, err)
	}
	for _, w := range []string{"Datei", "京都"} {
		hits, _, err := s.TermMatches(ctx, ContentTable, Any(ph(w)), TermScope{})
		if err != nil || len(hits) != 1 {
			t.Errorf("%s: %+v, %v; want one file", w, hits, err)
		}
	}
}

// Whether the index knows a word as typed goes by its main languages: a
// word held only as the stem of a language few files are in counts as
// unknown there, and as known once that language holds a real share, also
// after the index is opened again.
func TestMainLanguagesTellKnownWords(t *testing.T) {
	s, dir := openTemp(t)
	d, err := s.AddDirectory(ctx, "/m", true, "", time.Unix(1_700_000_000, 0))
	if err != nil {
		t.Fatal(err)
	}
	put := func(path, lang, text string) {
		doc := doc(d.ID, path, text)
		doc.Lang = lang
		if _, err := s.PutDocument(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	put("/m/de0.txt", "de", "Die Datei liegt auf dem Server.")
	for i := range 30 {
		put(fmt.Sprintf("/m/en%02d.txt", i), "en", "The roof was leaking through the ceiling.")
	}
	known := func() (all, main int) {
		a, err := s.WordDocFreqs(ctx, []string{"dateien"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.MainWordDocFreqs(ctx, []string{"dateien"})
		if err != nil {
			t.Fatal(err)
		}
		return a["dateien"], m["dateien"]
	}
	if all, main := known(); all != 1 || main != 0 {
		t.Fatalf("one German file in 31: dateien in %d files, %d in the main languages; want 1, 0", all, main)
	}
	for i := 1; i < 3; i++ {
		put(fmt.Sprintf("/m/de%d.txt", i), "de", "Die Datei liegt auf dem Server.")
	}
	s.Close()
	if s, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if all, main := known(); all != 3 || main != 3 {
		t.Fatalf("three German files in 33, opened again: dateien in %d files, %d in the main languages; want 3, 3", all, main)
	}
}

// An exact phrase matches a word in the form it has as written (its
// English stem), not in the other forms of the index's languages; a
// language's stem matches only that language's files.
func TestExactPhrasesMatchTheWordAsWritten(t *testing.T) {
	s, dir := openWithDir(t, "/x")
	put := func(path, lang, text string) int64 { return putIn(t, s, dir, path, lang, text) }
	pt := put("/x/pt.txt", "pt", "O acesso é exigido pelo sistema.")
	fr := put("/x/fr.txt", "fr", "Le système exige un accès.")
	for _, c := range []struct {
		phrase Phrase
		want   []int64
	}{
		{Phrase{Words: []string{"exigé"}}, []int64{pt, fr}}, // its stem in French is exige's, in Portuguese exigido's
		{Phrase{Words: []string{"exigido"}}, []int64{pt}},   // its Portuguese stem is no French file's term
		{Phrase{Words: []string{"exigido"}, Exact: true}, []int64{pt}},
		{Phrase{Words: []string{"système"}, Exact: true}, []int64{fr}},
	} {
		if got := matchedFiles(t, s, c.phrase); !slices.Equal(got, c.want) {
			t.Errorf("%+v matched %v, want %v", c.phrase, got, c.want)
		}
	}
}

// matchedFiles are the ids of the files whose text holds p, in order.
func matchedFiles(t *testing.T, s *Store, p Phrase) []int64 {
	t.Helper()
	hits, _, err := s.TermMatches(ctx, ContentTable, Any(p), TermScope{})
	if err != nil {
		t.Fatalf("%+v: %v", p, err)
	}
	var got []int64
	for _, h := range hits {
		got = append(got, h.FileID)
	}
	slices.Sort(got)
	return got
}
