package tokens

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitIdentifier(t *testing.T) {
	for in, want := range map[string][]string{
		"parseHTTPRequest2": {"parse", "HTTP", "Request", "2"},
		"fileName":          {"file", "Name"},
		"report2024":        {"report", "2024"},
		"Q3":                {"Q", "3"},
		"plain":             {"plain"},
		"ÉtéRapport":        {"Été", "Rapport"},
	} {
		if got := SplitIdentifier(in); !slices.Equal(got, want) {
			t.Errorf("SplitIdentifier(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNameTermsCoverEveryPart(t *testing.T) {
	got := NameTerms("Q3-quarterly_report.xlsx")
	for _, w := range []string{"Q3", "quarterly", "report", "xlsx"} {
		if !slices.Contains(Words(got), w) {
			t.Errorf("NameTerms lacks %q: %q", w, got)
		}
	}
	got = NameTerms("myBudgetPlan2024.ods")
	for _, w := range []string{"myBudgetPlan2024", "my", "Budget", "Plan", "2024", "ods"} {
		if !slices.Contains(Words(got), w) {
			t.Errorf("NameTerms lacks %q: %q", w, got)
		}
	}
}

func TestPathTerms(t *testing.T) {
	if got := PathTerms("Taxes/2023_returns/receipt.pdf"); !strings.Contains(got, "Taxes") || !strings.Contains(got, "returns") || strings.Contains(got, "receipt") {
		t.Fatalf("PathTerms = %q", got)
	}
	if PathTerms("top.txt") != "" {
		t.Fatal("a file at the root has no folder terms")
	}
}

func TestStemAndFold(t *testing.T) {
	for in, want := range map[string]string{"Running": "run", "shingles": "shingl", "Café": "cafe", "x86": "x86", "ÉTÉS": "et", "x\uFFFDé": "x\uFFFDe", "Йошкар": "йошкар", "ガイド": "ガイド"} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStemPorterExamples(t *testing.T) {
	for w, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat", "feed": "feed", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat", "troubled": "troubl",
		"sized": "size", "hopping": "hop", "tanned": "tan", "falling": "fall", "hissing": "hiss", "fizzed": "fizz",
		"failing": "fail", "filing": "file", "happy": "happi", "sky": "sky", "relational": "relat",
		"conditional": "condit", "rational": "ration", "digitizer": "digit", "operator": "oper",
		"feudalism": "feudal", "decisiveness": "decis", "hopefulness": "hope", "callousness": "callous",
		"formaliti": "formal", "sensitiviti": "sensit", "triplicate": "triplic", "formative": "form",
		"electrical": "electr", "goodness": "good", "revival": "reviv", "allowance": "allow", "inference": "infer",
		"airliner": "airlin", "adjustable": "adjust", "defensible": "defens", "irritant": "irrit",
		"replacement": "replac", "adjustment": "adjust", "dependent": "depend", "adoption": "adopt",
		"communism": "commun", "activate": "activ", "effective": "effect", "bowdlerize": "bowdler",
		"probate": "probat", "rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll",
		"generalizations": "gener", "oscillators": "oscil", "roofs": "roof", "roof": "roof", "shingles": "shingl",
		"is": "is", "a": "a", "naïve": "naiv", "x86": "x86",
	} {
		if got := Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestSplitExt(t *testing.T) {
	for name, want := range map[string][2]string{
		"report.pdf": {"report", "pdf"}, ".bashrc": {".bashrc", ""}, "README.Debian": {"README.Debian", ""},
		"archive.tar.gz": {"archive.tar", "gz"}, "notes": {"notes", ""}, "a.b-c": {"a.b-c", ""},
		"Photo.JPG": {"Photo", "jpg"}, "libfoo.so_": {"libfoo.so_", ""},
	} {
		if b, e := SplitExt(name); b != want[0] || e != want[1] {
			t.Errorf("SplitExt(%q) = %q, %q; want %q, %q", name, b, e, want[0], want[1])
		}
	}
}

// Folding twice is folding once, and valid text stays valid: a query's
// folded words are folded again wherever they are compared.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"Café", "мой новый ёлка", "例えば バグ", "Ελλάδα ΐ", "e\u0301x", "\u0301a", "한국어", "ǅ ß İ", "\uFFFD\xffé"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Fold(s)
		if twice := Fold(once); twice != once {
			t.Fatalf("Fold(%q) = %q, folded again %q", s, once, twice)
		}
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("Fold(%q) = %q is not valid UTF-8", s, once)
		}
	})
}

// BenchmarkFold folds words with marks, Latin and not, as snippets and
// name matching do for every such word they read.
func BenchmarkFold(b *testing.B) {
	ws := []string{"Mémoire", "allouée", "échec", "d'allocation", "новый", "отчёт", "例えば", "Ångström", "naïve", "café"}
	for b.Loop() {
		for _, w := range ws {
			Fold(w)
		}
	}
}

// A remembered stem is the stem: asked again, from many goroutines, past
// the shards' capacity (which empties them), every word keeps its stem.
func TestRememberedStemsStayTheStems(t *testing.T) {
	words := strings.Fields("Dateien Datei errechnet errechnen Häuser Haus maisons chercherons buscábamos")
	for i := range 3 * stemShardCap * len(stemShards) / 64 {
		words = append(words, "wort"+strings.Repeat("e", i%7)+string(rune('a'+i%26))+strings.Repeat("n", i%5))
	}
	first := map[string]string{}
	for _, w := range words {
		first["de/"+w], first["fr/"+w] = StemIn("de", w), StemIn("fr", w)
		if StemInRemembered("de", w) != first["de/"+w] {
			t.Fatalf("%s: remembered %q, stemmed %q", w, StemInRemembered("de", w), first["de/"+w])
		}
	}
	if first["de/Dateien"] != first["de/Datei"] || first["fr/maisons"] != "maison" {
		t.Fatalf("stems: Dateien %q, Datei %q, maisons %q", first["de/Dateien"], first["de/Datei"], first["fr/maisons"])
	}
	done := make(chan string, 8)
	for g := range 8 {
		go func() {
			for round := range 40 {
				for i := range words {
					w := words[(i*(g+1)+round)%len(words)]
					if got := StemInRemembered("de", w); got != first["de/"+w] {
						done <- "de " + w + ": " + got + ", was " + first["de/"+w]
						return
					}
					if got := StemInRemembered("fr", w); got != first["fr/"+w] {
						done <- "fr " + w + ": " + got + ", was " + first["fr/"+w]
						return
					}
				}
			}
			done <- ""
		}()
	}
	for range 8 {
		if msg := <-done; msg != "" {
			t.Fatal(msg)
		}
	}
}

// A stem of a language with rules of its own is marked with the language;
// English and unknown texts keep Porter's stems unmarked. A query word
// gives the unmarked stems too only while old rows remain.
func TestIndexTermsAreMarkedByLanguage(t *testing.T) {
	for _, c := range []struct{ lang, word, want string }{
		{"de", "Dateien", "de:datei"},
		{"en", "files", "file"},
		{"", "running", "run"},
		{"ja", "files", "file"}, // no stemmer of its own
	} {
		if got := IndexTerm(c.lang, c.word); got != c.want {
			t.Errorf("IndexTerm(%q, %q) = %q, want %q", c.lang, c.word, got, c.want)
		}
	}
	forms := func(unmarked bool) []string {
		var out []string
		QueryTerms("Dateien", []string{"de", "en"}, unmarked, func(term string, _, _ int, _ bool) error {
			out = append(out, term)
			return nil
		})
		return out
	}
	if got := forms(false); !slices.Equal(got, []string{"dateien", "de:datei"}) {
		t.Errorf("query forms of Dateien: %q, want the English stem and the German one marked", got)
	}
	if got := forms(true); !slices.Equal(got, []string{"dateien", "de:datei", "datei"}) {
		t.Errorf("query forms of Dateien while old rows remain: %q, want the German stem unmarked too", got)
	}
	if Unmarked("de:datei") != "datei" || Unmarked("file") != "file" {
		t.Error("Unmarked does not take the mark off, or changes an unmarked term")
	}
}
