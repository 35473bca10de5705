package store

import (
	"slices"
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
// (fts5_locale(lang, text)), and Chinese and Japanese runs become
// bigrams. A query's words are not of a known language: each becomes its
// forms in every language the index holds, at one position (colocated
// tokens), so a short query matches in any of them.

// tokenizerName is the FTS5 tokenizer the text table is declared with.
const tokenizerName = "trove"

// langSet is the set of the languages of the indexed files, which query
// words are stemmed in. It is shared by the store, which adds to it as it
// writes files, and the tokenizers of its connections, which read it.
type langSet struct {
	mu   sync.Mutex // serialises adds
	list atomic.Pointer[[]string]
}

// get returns the languages, sorted; the slice is never changed.
func (l *langSet) get() []string {
	if p := l.list.Load(); p != nil {
		return *p
	}
	return nil
}

// add adds languages to the set.
func (l *langSet) add(langs ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := l.get()
	next := cur
	for _, lang := range langs {
		if lang != "" && !slices.Contains(next, lang) {
			next = append(slices.Clip(next), lang)
		}
	}
	if len(next) != len(cur) {
		slices.Sort(next)
		l.list.Store(&next)
	}
}

// textTokenizer is the tokenizer of one connection's text table.
type textTokenizer struct{ langs *langSet }

// Tokenize gives FTS5 a document's terms in its language (the locale), or
// a query's terms in every language of the index.
func (t textTokenizer) Tokenize(flags fts5.TokenizeFlag, text, locale string, emit fts5.TokenCallback) error {
	if flags&fts5.TOKENIZE_QUERY != 0 {
		return tokens.QueryTerms(text, t.langs.get(), func(term string, start, end int, colocated bool) error {
			var f fts5.TokenFlag
			if colocated {
				f = fts5.TOKEN_COLOCATED
			}
			return emit(f, term, start, end)
		})
	}
	return tokens.Terms(text, locale, func(term string, start, end int) error {
		return emit(0, term, start, end)
	})
}

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
