package tokens

import (
	"sort"
	"strings"
)

// Snowball has no Polish stemmer, and Stempel, the one Lucene uses, needs
// tables that cannot ship here. stemPolish is a light stemmer instead: it
// removes the longest inflectional ending of a noun, adjective or verb,
// keeping a stem of at least three letters. It joins the forms of a word
// (pliki, plików, plikami -> plik; dysku, dyskiem -> dysk) more often than
// it confuses two words, which is what search needs.
func stemPolish(w string) string {
	if n := runeCount(w); n <= 3 {
		return w
	}
	for _, end := range polishEndings {
		if strings.HasSuffix(w, end) && runeCount(w)-runeCount(end) >= 3 {
			return w[:len(w)-len(end)]
		}
	}
	return w
}

func runeCount(s string) int { return len([]rune(s)) }

// polishEndings are adjective, noun and verb endings, longest first (see
// init).
var polishEndings = []string{
	// adjectives and participles
	"owego", "owemu", "owych", "owymi", "iejszy", "ejszy",
	"nego", "nemu", "nych", "nymi", "nej", "nym", "nie",
	"ego", "emu", "ych", "ymi", "ich", "imi", "iej", "ej", "ym", "im", "ą",
	// nouns
	"owie", "owi", "ami", "ach", "ów", "om", "em", "ie", "ii", "ią", "ę",
	// verbs
	"iłam", "iłem", "ałam", "ałem", "iłaś", "iłeś", "ować", "uje", "ują", "ujesz",
	"ał", "ił", "ać", "ić", "eć", "yć",
	// the shortest
	"y", "i", "a", "e", "o", "u",
}

func init() {
	sort.SliceStable(polishEndings, func(i, j int) bool { return runeCount(polishEndings[i]) > runeCount(polishEndings[j]) })
}
