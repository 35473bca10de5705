package main

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestCJKQueriesComeFromInsideARun(t *testing.T) {
	docs := []doc{{Lang: "zh", Rel: "zh/man1/ls.1.txt", Text: "名称\n       ls - 列出目录内容并显示文件属性信息\n"}}
	g := &generator{r: rand.New(rand.NewPCG(1, 2)), ix: newIndex(docs)}
	for range 50 {
		it, ok := g.cjk(0)
		if !ok {
			t.Fatal("no query from a run of 14 characters")
		}
		run := "列出目录内容并显示文件属性信息"
		n := len([]rune(it.Query))
		if n < 2 || n > 4 || !strings.Contains(run, it.Query) || strings.HasPrefix(run, it.Query) {
			t.Fatalf("query %q is not 2-4 characters from inside the run", it.Query)
		}
		if !slices.Equal(it.Accept, []string{"zh/man1/ls.1.txt"}) {
			t.Fatalf("accepted %q", it.Accept)
		}
	}
}

func TestInflectionIsAFormNoPageHolds(t *testing.T) {
	docs := []doc{
		{Lang: "de", Rel: "de/a.txt", Text: "Die Dateien werden gelöscht."},
		{Lang: "de", Rel: "de/b.txt", Text: "Ein Verzeichnis enthält Einträge."},
	}
	l := &wordList{has: map[string]bool{}, byPrefix: map[string][]string{}}
	for _, w := range []string{"dateien", "datei", "datum", "gelöscht", "löschen", "verzeichnis", "verzeichnisse"} {
		l.has[w] = true
		r := []rune(w)
		l.byPrefix[string(r[:4])] = append(l.byPrefix[string(r[:4])], w)
	}
	g := &generator{r: rand.New(rand.NewPCG(3, 4)), ix: newIndex(docs)}
	forms, err := g.inflections("de", l, "de_DE")
	if err != nil {
		t.Skipf("hunspell with de_DE: %v", err)
	}
	if !slices.Equal(forms["dateien"], []string{"datei"}) || !slices.Equal(forms["verzeichnis"], []string{"verzeichnisse"}) {
		t.Fatalf("forms %q: want datei for dateien (not datum) and verzeichnisse for verzeichnis", forms)
	}
	for range 30 {
		if it, ok := g.inflect(0, forms); ok {
			if it.Query != "Datei" || it.Target != "de/a.txt" {
				t.Fatalf("%+v: want Datei, aimed at de/a.txt", it)
			}
			return
		}
	}
	t.Fatal("no inflection made")
}
