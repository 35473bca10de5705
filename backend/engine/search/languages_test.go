package search

import (
	"strings"
	"testing"
)

// Words are found, ranked and marked in other forms of the file's
// language, and CJK words inside sentences.
func TestSearchInOtherLanguages(t *testing.T) {
	e := testIndexIn(t, []testDoc{
		{"de.txt", []string{"Die Dateien auf dem Server wurden gestern von einem Kollegen gelöscht, und niemand weiß, warum das passiert ist."}},
		{"fr.txt", []string{"Les fichiers du serveur ont été supprimés hier par un collègue, et personne ne sait pourquoi."}},
		{"ja.txt", []string{"東京都に住む人々は毎朝電車に乗って会社へ行きます。"}},
		{"zh.txt", []string{"我们在北京大学学习中文，每天都有很多作业。"}},
		{"en.txt", []string{"The files on the server were deleted yesterday by a colleague."}},
	}, map[string]string{"de.txt": "de", "fr.txt": "fr", "ja.txt": "ja", "zh.txt": "zh"})
	for _, c := range []struct{ query, want, mark string }{
		{"Datei", "de.txt", "<mark>Dateien</mark>"},
		{"Kollege gelöscht", "de.txt", "<mark>gelöscht</mark>"},
		{"fichier supprimé", "fr.txt", "<mark>fichiers</mark>"},
		{"京都", "ja.txt", "<mark>京都</mark>"},
		{"電車", "ja.txt", "<mark>電車</mark>"},
		{"北京大学", "zh.txt", "<mark>北京大学</mark>"},
		{"deleted files", "en.txt", "<mark>deleted</mark>"},
	} {
		rs := search(t, e, Request{Query: c.query, Snippets: true})
		if len(rs) == 0 || paths(rs)[0] != c.want {
			t.Errorf("%q: %v, want %s first", c.query, paths(rs), c.want)
			continue
		}
		if !strings.Contains(rs[0].Snippet, c.mark) {
			t.Errorf("%q: snippet %q does not hold %s", c.query, rs[0].Snippet, c.mark)
		}
	}
	// The language filter keeps the files of its languages.
	if got := paths(search(t, e, Request{Query: "server", Filters: Filters{Languages: []string{"de"}}})); len(got) != 1 || got[0] != "de.txt" {
		t.Errorf("server in German: %v, want de.txt", got)
	}
}

// English word vectors do not rank a German file below an English one
// that matches the query's words as well: the German file's meaning is
// not read from them. Other vectors judge every file alike.
func TestEnglishVectorsDoNotJudgeOtherLanguages(t *testing.T) {
	q := Query{Mode: Hybrid, Terms: []Term{{Text: "alpha", Weight: 1, IDF: 5}}}
	col := Collection{AvgLen: [numFields]float64{FieldText: 100}}
	cand := func(id int64, lang string, sim float64) *Candidate {
		return &Candidate{ID: id, TF: [][numFields]int32{{FieldText: 1}}, Len: [numFields]int32{FieldText: 100},
			Lang: lang, Similarity: sim, HasVector: true}
	}
	en, de := cand(1, "en", 0.6), cand(2, "de", 0.1)
	q.EnglishVectors = true
	if got := Fuse(q, []*Candidate{en, de}, col, DefaultTuning); got[0].C.ID != de.ID && got[0].Score > got[1].Score {
		t.Errorf("English vectors: %d first (%.3f > %.3f), want the German file not below", got[0].C.ID, got[0].Score, got[1].Score)
	}
	q.EnglishVectors = false
	if got := Fuse(q, []*Candidate{en, de}, col, DefaultTuning); got[0].C.ID != en.ID {
		t.Errorf("other vectors: %d first, want the closer file", got[0].C.ID)
	}
}
