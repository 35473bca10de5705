package search

import (
	"slices"
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
	// So does lang: in the query, and with the filter both must hold.
	if got := paths(search(t, e, Request{Query: "fichier lang:fr"})); len(got) != 1 || got[0] != "fr.txt" {
		t.Errorf("fichier lang:fr: %v, want fr.txt", got)
	}
	if got := paths(search(t, e, Request{Query: "fichier lang:fr", Filters: Filters{Languages: []string{"de"}}})); len(got) != 0 {
		t.Errorf("lang:fr with the German filter: %v, want none", got)
	}
}

// A file that holds the query's words as written ranks above one that
// holds them only in other forms sharing their stems (exige and
// administradora for exigido and administrador), even where that file is
// shorter; a file of another language whose stems look the same (the
// French exige) is not found.
func TestWordsAsWrittenRankAboveOtherForms(t *testing.T) {
	e := testIndexIn(t, []testDoc{
		{"pt.txt", []string{"O acesso ao sistema de arquivos é exigido pelo administrador da rede local em cada servidor."}},
		{"pt-other.txt", []string{"O sistema exige uma administradora."}},
		{"fr.txt", []string{"Le système exige un administrateur."}},
	}, map[string]string{"pt.txt": "pt", "pt-other.txt": "pt", "fr.txt": "fr"})
	for _, mode := range []Mode{Keyword, Hybrid} {
		rs := search(t, e, Request{Query: "exigido administrador", Mode: mode})
		if got := paths(rs); len(got) < 2 || got[0] != "pt.txt" || got[1] != "pt-other.txt" || mode == Keyword && len(got) != 2 {
			t.Errorf("%s: %v, want pt.txt first, then pt-other.txt (and fr.txt by meaning alone)", mode, got)
		}
	}
}

// The language facet counts the matching files of each language before
// the language filter, and after the type filter; the kinds facet counts
// them after the language filter. Each mode and the browsing of filters
// alone agree.
func TestLanguageFacetCountsBeforeItsFilter(t *testing.T) {
	e := testIndexIn(t, []testDoc{
		{"de.txt", []string{"Der Server wurde gestern neu gestartet, nachdem die Festplatte voll war."}},
		{"de.md", []string{"Auf dem Server läuft die Datenbank seit gestern wieder."}},
		{"fr.txt", []string{"Le serveur a été redémarré hier, server, après que le disque était plein."}},
		{"en.txt", []string{"The server was restarted yesterday after the disk filled up."}},
	}, map[string]string{"de.txt": "de", "de.md": "de", "fr.txt": "fr", "en.txt": "en"})
	ctx := t.Context()
	for _, mode := range []Mode{Keyword, Hybrid, Names} {
		query := "server"
		if mode == Names {
			query = "*.*" // names mode finds by name
		}
		p, err := e.SearchPage(ctx, PageRequest{Request: Request{Query: query, Mode: mode, Filters: Filters{Languages: []string{"de"}}}})
		if err != nil {
			t.Fatal(err)
		}
		want := []LangCount{{"de", 2}, {"en", 1}, {"fr", 1}}
		if !slices.Equal(p.Languages, want) || p.Total != 2 {
			t.Errorf("%s, German only: languages %v, total %d; want %v, 2", mode, p.Languages, p.Total, want)
		}
		if kinds := kindCounts(p.Facets); kinds["documents"] != 2 {
			t.Errorf("%s, German only: kinds %v, want the 2 German documents", mode, kinds)
		}
		p, err = e.SearchPage(ctx, PageRequest{Request: Request{Query: query, Mode: mode, Filters: Filters{Languages: []string{"de"}, Extensions: []string{"md"}}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []LangCount{{"de", 1}}; !slices.Equal(p.Languages, want) || p.Total != 1 {
			t.Errorf("%s, German Markdown: languages %v, total %d; want %v, 1", mode, p.Languages, p.Total, want)
		}
	}
}

func kindCounts(exts []ExtCount) map[string]int {
	out := map[string]int{}
	for _, e := range exts {
		out[e.Kind] += e.Count
	}
	return out
}
