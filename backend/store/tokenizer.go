package store

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"

	"trove/backend/store/tokens"
)

// The text of files goes through FTS5 tokenizer "trove", written here in
// Go (the driver lets Go implement FTS5 tokenizers), rather than SQLite's
// unicode61 and porter: a file's words are stemmed by the rules of the
// file's language, which each row brings as its FTS5 locale
// (fts5_locale(lang, text)), each stem marked with its language
// (tokens.IndexTerm: de:datei) beside the word's English stem, and
// Chinese and Japanese runs become bigrams. A query's words are not of a
// known language: each becomes its forms in every language the index
// holds, at one position (colocated tokens), so a short query matches in
// any of them, and a language's stem only in that language's files.

// tokenizerName is the FTS5 tokenizer the text table is declared with.
const tokenizerName = "trove"

// exactMark starts the text of a query phrase of Phrase.Exact: a
// character of Unicode's private use area, neither letter nor digit, so
// no word (tokens.Words) holds it.
const exactMark = "\ue000"

// langSet is the set of the languages of the indexed files, which query
// words are stemmed in. It is shared by the store, which adds to it as it
// writes files, and the tokenizers of its connections, which read it.
type langSet struct {
	mu   sync.Mutex // serialises adds, guards files
	list atomic.Pointer[[]string]
	// files counts the files of each language: those the index held at
	// open and those written since. A file written again counts again,
	// and a removed one is not taken off: the counts tell which languages
	// hold a real share of the index, not exact numbers.
	files map[string]int64
	total int64
	// unmarked says that the text table still holds rows an older Trove
	// wrote, whose stems of other languages than English bear no mark of
	// their language (tokens.IndexTerm): queries look for those stems
	// too until every row is written again (retokenize.go).
	unmarked atomic.Bool
}

// get returns the languages, sorted; the slice is never changed.
func (l *langSet) get() []string {
	if p := l.list.Load(); p != nil {
		return *p
	}
	return nil
}

// add counts n files of each of langs.
func (l *langSet) add(n int64, langs ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.files == nil {
		l.files = map[string]int64{}
	}
	cur := l.get()
	next := cur
	for _, lang := range langs {
		if lang == "" {
			continue
		}
		l.files[lang] += n
		l.total += n
		if !slices.Contains(next, lang) {
			next = append(slices.Clip(next), lang)
		}
	}
	if len(next) != len(cur) {
		slices.Sort(next)
		l.list.Store(&next)
	}
}

// reset replaces the set with the languages and file counts the index
// holds (read when it is opened, or none for a new one): counts added to
// counts read before would count every file twice.
func (l *langSet) reset(files map[string]int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.files, l.total = map[string]int64{}, 0
	list := []string{}
	for lang, n := range files {
		l.files[lang], l.total = n, l.total+n
		list = append(list, lang)
	}
	slices.Sort(list)
	l.list.Store(&list)
}

// mainShare is the share of the index's files a language must hold to be
// one of its main languages. Detection calls a few texts of any large
// collection wrongly (code, tables, names): in 20,000 English files, 1%
// came out French and 0.5% German.
const mainShare = 0.05

// main returns the languages that hold at least mainShare of the files.
func (l *langSet) main() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for lang, n := range l.files {
		if float64(n) >= mainShare*float64(l.total) {
			out = append(out, lang)
		}
	}
	slices.Sort(out)
	return out
}

// textTokenizer is the tokenizer of one connection's text table.
type textTokenizer struct{ langs *langSet }

// Tokenize gives FTS5 a document's terms in its language (the locale), or
// a query's terms in every language of the index.
func (t textTokenizer) Tokenize(flags fts5.TokenizeFlag, text, locale string, emit fts5.TokenCallback) error {
	if flags&fts5.TOKENIZE_QUERY != 0 {
		langs := t.langs.get()
		if rest, ok := strings.CutPrefix(text, exactMark); ok {
			// A phrase of Phrase.Exact: the words' English stems only. The
			// mark is a character no word holds, so the offsets stand.
			text, langs = strings.Repeat(" ", len(exactMark))+rest, nil
		}
		return tokens.QueryTerms(text, langs, t.langs.unmarked.Load(), func(term string, start, end int, colocated bool) error {
			var f fts5.TokenFlag
			if colocated {
				f = fts5.TOKEN_COLOCATED
			}
			return emit(f, term, start, end)
		})
	}
	english := tokens.EnglishLike(locale) || !tokens.Stemmed(locale)
	old := writeOldRows.Load() // once a text, not once a word
	return tokens.Terms(text, locale, func(term string, start, end int) error {
		if old {
			term = tokens.Unmarked(term)
		}
		if err := emit(0, term, start, end); err != nil || english || tokens.HasCJK(term) {
			return err
		}
		// The English stem too, at the same place: a text told to be in
		// another language is found by English words as before (a
		// detection can be wrong, and such texts quote English).
		if en := tokens.Stem(text[start:end]); en != term {
			return emit(fts5.TOKEN_COLOCATED, en, start, end)
		}
		return nil
	})
}

// writeOldRows makes the tokenizer write rows as an older Trove did, with
// no language marks: for tests of the upgrade.
var writeOldRows atomic.Bool

// createTokenizer registers the tokenizer on a connection.
func createTokenizer(a *fts5.API, langs *langSet) error {
	return a.CreateTokenizer(tokenizerName, func([]string) (fts5.Tokenizer, error) {
		return textTokenizer{langs: langs}, nil
	})
}

// detectFunc is an SQL function returning the language of a text
// (tokens.Detect), which a migration gives the files indexed before
// languages were told apart.
const detectFunc = "trove_lang"

func registerDetect(c *sqlite3.Conn) error {
	return c.CreateFunction(detectFunc, 1, sqlite3.DETERMINISTIC|sqlite3.INNOCUOUS, func(ctx sqlite3.Context, args ...sqlite3.Value) {
		ctx.ResultText(tokens.Detect(args[0].Text()))
	})
}

// Languages returns the languages of the indexed files, sorted.
func (s *Store) Languages() []string { return s.langs.get() }

// WordForms returns the index terms a query word matches in the text, by
// position: one position with the word's stem in each language of the
// index, or, for a CJK word, a position per bigram.
func (s *Store) WordForms(word string) [][]string { return s.wordForms(word, s.langs.get()) }

func (s *Store) wordForms(word string, langs []string) [][]string {
	var out [][]string
	tokens.QueryTerms(word, langs, s.langs.unmarked.Load(), func(term string, _, _ int, colocated bool) error {
		if !colocated || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], term)
		return nil
	})
	return out
}

// WordDocFreqs is RankDocFreqs for query words as typed (keyed by them),
// which the text holds in forms of their own (WordForms): a word is held
// by about as many files as its commonest stem (a file is in one
// language), and a CJK word by at most as many as its rarest bigram.
func (s *Store) WordDocFreqs(ctx context.Context, words []string) (map[string]int, error) {
	return s.wordDocFreqs(ctx, words, s.langs.get())
}

// MainWordDocFreqs is WordDocFreqs in the index's main languages only
// (English always): whether the index knows a word as typed, for telling
// a misspelling. In every language of the index, a misspelt word is
// often some rare language's stem of a word the index holds (a few
// English files detected as Finnish are enough), and goes uncorrected.
func (s *Store) MainWordDocFreqs(ctx context.Context, words []string) (map[string]int, error) {
	return s.wordDocFreqs(ctx, words, s.langs.main())
}

func (s *Store) wordDocFreqs(ctx context.Context, words, langs []string) (map[string]int, error) {
	forms := make([][][]string, len(words))
	var terms []string
	for i, w := range words {
		forms[i] = s.wordForms(w, langs)
		for _, at := range forms[i] {
			terms = append(terms, at...)
		}
	}
	_, df, err := s.RankDocFreqs(ctx, terms)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(words))
	for i, w := range words {
		n := -1
		for _, at := range forms[i] {
			most := 0
			for _, t := range at {
				most = max(most, df[t])
			}
			if n < 0 || most < n {
				n = most
			}
		}
		out[w] = max(n, 0)
	}
	return out, nil
}
