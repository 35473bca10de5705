package store

import (
	"strconv"
	"strings"
)

// The full-text format is the store's own: which tables and columns hold
// what, how their text is split (store/tokens), and the FTS5 syntax that
// queries them. Callers describe what they look for as values (a Phrase,
// an Expr); only this file writes FTS5 syntax, and it quotes every word,
// so nothing a person types can reach the syntax.

// Column is a column of the full-text tables: the part of a file a word
// was found in. Their order is the tables' own (see TermTable.Columns).
type Column int

// The columns. Text is the file's content (fts_content); the others are
// fts_files': its name, the names of its folders below the watched one,
// and its card (title, keywords, summary).
const (
	ColText Column = iota
	ColName
	ColFolders
	ColTitle
	ColKeywords
	ColSummary
	NumColumns
)

// ftsColumn names each column as its table declares it.
var ftsColumn = [NumColumns]string{"text", "name", "path", "title", "keywords", "summary"}

// Phrase is one term of a full-text query: its words, in order (a single
// word, or a phrase that must appear as written), split as the index
// splits text (tokens.Words); with Prefix, the last word matches any word
// it starts.
type Phrase struct {
	Words  []string
	Prefix bool
	// In, when not empty, restricts the phrase to these columns of its
	// table (the file table's name and title, say).
	In []Column
	// Exact matches the text's words only in the form the query word has
	// as written (its English stem, which every text holds beside its
	// own language's), not in the forms of the index's other languages.
	Exact bool
}

// Expr is a full-text query: any of its phrases (a file matches with one
// of them), or, with All, every one of them.
type Expr struct {
	Phrases []Phrase
	All     bool
}

// Any is the expression matching files that hold any of phrases.
func Any(phrases ...Phrase) Expr { return Expr{Phrases: phrases} }

// All is the expression matching files that hold every one of phrases.
func All(phrases ...Phrase) Expr { return Expr{Phrases: phrases, All: true} }

// Empty reports whether the expression has nothing to match.
func (e Expr) Empty() bool { return len(e.Phrases) == 0 }

// fts5 writes the expression in FTS5's query syntax.
func (e Expr) fts5() string {
	parts := make([]string, len(e.Phrases))
	for i, p := range e.Phrases {
		parts[i] = p.fts5()
	}
	join := " OR "
	if e.All {
		join = " AND "
	}
	return strings.Join(parts, join)
}

// fts5 writes the phrase as an FTS5 string literal (so its words are only
// ever words), with its prefix mark and column filter.
func (p Phrase) fts5() string {
	text := strings.Join(p.Words, " ")
	if p.Exact {
		text = exactMark + text
	}
	s := `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
	if p.Prefix {
		s += " *"
	}
	if len(p.In) == 0 {
		return s
	}
	cols := make([]string, len(p.In))
	for i, c := range p.In {
		cols[i] = ftsColumn[c]
	}
	return "{" + strings.Join(cols, " ") + "} : (" + s + ")"
}

// Near is a labelled value in a file's text: the word Label with the
// words of Value close after it, as a metadata line of the text reads
// ("author: Jane Doe"). FTS5's NEAR does not keep order, so a label a few
// words after its value matches too.
type Near struct {
	Label  string
	Value  []string
	Within int // words between the label and the value's last word, at most
}

func (n Near) fts5() string {
	label, value := Phrase{Words: []string{n.Label}}, Phrase{Words: n.Value}
	return "NEAR(" + label.fts5() + " " + value.fts5() + ", " + strconv.Itoa(max(n.Within, 0)) + ")"
}
