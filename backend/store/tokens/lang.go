package tokens

import (
	"hash/maphash"
	"sort"
	"strings"
	"sync"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

// A file's words are stemmed by the rules of its language, so that a word
// is found in its other forms (Datei, Dateien; errechnet, errechnen). The
// languages are those with a Snowball stemmer, and Polish (polish.go);
// English keeps the Porter stemmer SQLite's porter tokenizer has always
// given the index. A text of no known language ("") is stemmed as English,
// as every text was before languages were told apart.

// English is the language of texts whose language is not known.
const English = "en"

// snowballStemmers are the languages with a Snowball stemmer, by ISO 639-1
// code.
var snowballStemmers = map[string]func(*snowball.Env) bool{
	"ar": arabic.Stem, "da": danish.Stem, "de": german.Stem, "es": spanish.Stem, "fi": finnish.Stem,
	"fr": french.Stem, "hu": hungarian.Stem, "it": italian.Stem, "nl": dutch.Stem, "no": norwegian.Stem,
	"nb": norwegian.Stem, "pt": portuguese.Stem, "ro": romanian.Stem, "ru": russian.Stem, "sv": swedish.Stem,
	"tr": turkish.Stem,
}

// EnglishLike reports whether a text of language lang is indexed as
// English: English itself, and a text whose language is not known.
func EnglishLike(lang string) bool { return lang == English || lang == "" }

// Stemmed reports whether the index stems words of language lang (an ISO
// 639-1 code) by that language's rules.
func Stemmed(lang string) bool {
	_, ok := snowballStemmers[lang]
	return ok || lang == English || lang == "pl"
}

// Languages lists the languages whose words are stemmed, sorted.
func Languages() []string {
	out := []string{English, "pl"}
	for l := range snowballStemmers {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// envs keeps Snowball's working memory between words.
var envs = sync.Pool{New: func() any { return snowball.NewEnv("") }}

// StemIn is the index term of word w in language lang: for English (and a
// language the index does not stem, or none) w folded and Porter-stemmed
// (Stem); for another language, w lower-cased, stemmed by its rules, then
// folded, so that its diacritics guide the stemmer before they go.
func StemIn(lang, w string) string {
	switch stem, ok := snowballStemmers[lang]; {
	case ok:
		env := envs.Get().(*snowball.Env)
		defer envs.Put(env)
		env.SetCurrent(strings.ToLower(w))
		stem(env)
		return Fold(env.Current())
	case lang == "pl":
		return Fold(stemPolish(strings.ToLower(w)))
	}
	return Stem(w)
}

// StemInRemembered is StemIn for searches, which ask the same words again
// and again (snippets stem each word of fifty passages in every language
// of the index): the stems are remembered, a bounded number. Indexing
// does not use it: a file's words are mostly new to it, and a memory
// that turned over with every file would only make garbage.
func StemInRemembered(lang, w string) string {
	if _, ok := snowballStemmers[lang]; !ok && lang != "pl" {
		return Stem(w)
	}
	sh := &stemShards[maphash.String(stemSeed, w)%uint64(len(stemShards))]
	k := stemKey{lang, w}
	sh.mu.Lock()
	s, hit := sh.m[k]
	sh.mu.Unlock()
	if hit {
		return s
	}
	s = StemIn(lang, w)
	sh.mu.Lock()
	if len(sh.m) >= stemShardCap || sh.m == nil {
		sh.m = make(map[stemKey]string, stemShardCap)
	}
	// A copy: w may be a slice of a whole passage's text.
	sh.m[stemKey{lang, strings.Clone(w)}] = s
	sh.mu.Unlock()
	return s
}

// The remembered stems: a Snowball stemmer costs about a microsecond a
// word, a lookup a twentieth of that. Each shard is emptied when full; 32
// of 2,048 words hold about 4 MB.
type stemKey struct{ lang, word string }

type stemShard struct {
	mu sync.Mutex
	m  map[stemKey]string
}

const stemShardCap = 2048

var (
	stemShards [32]stemShard
	stemSeed   = maphash.MakeSeed()
)

// IndexTerm is the index term of word w in a text of language lang: its
// stem in lang (StemIn), marked with the language when lang is stemmed by
// rules of its own (markedStem). Without the mark, a Spanish query's
// "eleg" (elegida) would find the French "élégant" and a Polish "qui"
// (quien) the French "qui": languages' stems collide where their words
// do not.
func IndexTerm(lang, w string) string {
	if EnglishLike(lang) || !Stemmed(lang) {
		return Stem(w)
	}
	stem := StemIn(lang, w)
	if stem == "" {
		return Stem(w)
	}
	return markedStem(lang, stem)
}

// markedStem is a stem of language lang as the index holds it: the
// language's code, markSep and the stem.
func markedStem(lang, stem string) string { return lang + markSep + stem }

// markSep parts a marked stem's language from the stem: no word holds it.
const markSep = ":"

// StemsIn are the index terms of word w in each of langs, each once, the
// English one first: what a query word may be in an index holding texts
// of those languages.
func StemsIn(w string, langs []string) []string {
	out := []string{Stem(w)}
	for _, l := range langs {
		if l == English || !Stemmed(l) {
			continue
		}
		if s := IndexTerm(l, w); !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
