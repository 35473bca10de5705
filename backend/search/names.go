package search

import (
	"math"
	"strings"
	"unicode"

	"trove/backend/tokens"
)

// Names come first in desktop search: a person who remembers a file's name
// types it, or part of it, and expects that file on top. nameMatch scores
// how well the query and a file's name describe each other:
//
//	query side: the share of the query's weight (IDF) that the name,
//	            its extension or its folders account for
//	name side:  the share of the name's characters (without extension)
//	            that query words cover
//	score       = query side ^ NameQueryPower * name side, 0 to 1
//
// So the exact name, or the name without its extension, scores 1; a
// distinctive part of a long name scores by how much of the name it is;
// a name that only shares a common word with a long query scores little.
// A query word matches a part of the name by its folded form or its stem,
// a whole compound ("x11protocol" in x11protocol.txt), the start of a part
// when it is the last word typed (the name may not be finished), or, with
// less credit, anywhere inside a word ("port" in report.pdf).

// NameWord is one query word for name matching.
type NameWord struct {
	Text   string  // folded
	Stem   string  // its index form
	Weight float64 // IDF: rare words say more about which file is meant
	Prefix bool    // the last word typed, maybe unfinished
}

// nameWords builds the words of a query for name matching.
func nameWords(texts []string, last bool, idf func(stem string) float64) []NameWord {
	out := make([]NameWord, 0, len(texts))
	for i, w := range texts {
		f := tokens.Fold(w)
		stem := tokens.Stem(w)
		out = append(out, NameWord{Text: f, Stem: stem, Weight: idf(stem), Prefix: last && i == len(texts)-1})
	}
	return out
}

// namePart is a piece of a name: a word, or part of a compound word.
type namePart struct {
	text, stem string
	covered    float64 // characters covered by query words
}

type nameWord struct {
	text, stem string
	parts      []namePart
}

// splitName reads a name as words and their parts.
func splitName(base string) []nameWord {
	var out []nameWord
	for _, w := range tokens.Words(base) {
		nw := nameWord{text: tokens.Fold(w), stem: tokens.Stem(w)}
		for _, p := range tokens.SplitIdentifier(w) {
			nw.parts = append(nw.parts, namePart{text: tokens.Fold(p), stem: tokens.Stem(p)})
		}
		out = append(out, nw)
	}
	return out
}

// splitExt splits a file name into its base and extension (without the
// dot). A leading dot does not start an extension, and an extension is
// short letters and digits.
func splitExt(name string) (base, ext string) {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 || len(name)-i-1 > 5 {
		return name, ""
	}
	for _, r := range name[i+1:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return name, ""
		}
	}
	return name[:i], tokens.Fold(name[i+1:])
}

// nameMatch returns the name score of a file and, for explanations, what
// each query word matched ("name", "extension", "folders", "" for
// nothing), in the order of words.
func nameMatch(words []NameWord, name, folders string, t Tuning) (float64, []string) {
	if len(words) == 0 || name == "" {
		return 0, nil
	}
	base, ext := splitExt(name)
	nws := splitName(base)
	var folderWords []nameWord
	matched := make([]string, len(words))
	var credit, total float64
	for i, q := range words {
		total += q.Weight
		c := 0.0
		switch {
		case coverWhole(nws, q):
			c, matched[i] = 1, "name"
		case coverPart(nws, q):
			c, matched[i] = 1, "name"
		case q.Text == ext:
			c, matched[i] = 1, "extension"
		case coverInside(nws, q, t.NameSubstringCredit):
			c, matched[i] = t.NameSubstringCredit, "name"
		default:
			if folderWords == nil && folders != "" {
				folderWords = splitName(folders)
			}
			if hasWord(folderWords, q) {
				c, matched[i] = t.NameFolderCredit, "folders"
			}
		}
		credit += q.Weight * c
	}
	if credit == 0 || total == 0 {
		return 0, matched
	}
	var covered, size float64
	for _, w := range nws {
		for _, p := range w.parts {
			n := float64(len(p.text))
			size += n
			covered += min(p.covered, n)
		}
	}
	nameSide := 1.0
	if size > 0 {
		nameSide = covered / size
	}
	return math.Pow(credit/total, t.NameQueryPower) * nameSide, matched
}

func sameWord(q NameWord, text, stem string) bool {
	return q.Text == text || q.Stem == stem
}

// coverWhole matches a whole word of the name, all its parts at once.
func coverWhole(nws []nameWord, q NameWord) bool {
	hit := false
	for i := range nws {
		if len(nws[i].parts) > 1 && sameWord(q, nws[i].text, nws[i].stem) || len(nws[i].parts) == 1 && sameWord(q, nws[i].parts[0].text, nws[i].parts[0].stem) {
			for j := range nws[i].parts {
				nws[i].parts[j].covered = float64(len(nws[i].parts[j].text))
			}
			hit = true
		}
	}
	return hit
}

// coverPart matches one part of a compound word, or the start of one when
// the word may be unfinished.
func coverPart(nws []nameWord, q NameWord) bool {
	hit := false
	for i := range nws {
		wordHit := false
		for j := range nws[i].parts {
			p := &nws[i].parts[j]
			switch {
			case sameWord(q, p.text, p.stem):
				p.covered = float64(len(p.text))
				wordHit = true
			case q.Prefix && len(q.Text) >= 2 && strings.HasPrefix(p.text, q.Text):
				p.covered = max(p.covered, float64(len(q.Text)))
				wordHit = true
			}
		}
		if !wordHit && q.Prefix && len(q.Text) >= 2 && strings.HasPrefix(nws[i].text, q.Text) {
			coverSpan(&nws[i], 0, len(q.Text), 1)
			wordHit = true
		}
		hit = hit || wordHit
	}
	return hit
}

// coverInside matches the word anywhere inside a word of the name, with
// the given credit per character.
func coverInside(nws []nameWord, q NameWord, credit float64) bool {
	if len([]rune(q.Text)) < 3 || credit == 0 {
		return false
	}
	hit := false
	for i := range nws {
		if at := strings.Index(nws[i].text, q.Text); at >= 0 {
			coverSpan(&nws[i], at, at+len(q.Text), credit)
			hit = true
		}
	}
	return hit
}

// coverSpan credits the characters from..to of a word to its parts.
func coverSpan(w *nameWord, from, to int, credit float64) {
	at := 0
	for j := range w.parts {
		p := &w.parts[j]
		lo, hi := max(from, at), min(to, at+len(p.text))
		if hi > lo {
			p.covered = max(p.covered, credit*float64(hi-lo))
		}
		at += len(p.text)
	}
}

func hasWord(nws []nameWord, q NameWord) bool {
	for _, w := range nws {
		if sameWord(q, w.text, w.stem) {
			return true
		}
		for _, p := range w.parts {
			if sameWord(q, p.text, p.stem) {
				return true
			}
		}
	}
	return false
}
