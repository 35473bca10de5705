// Package chunk cuts a document's text into passages of a few hundred words:
// the unit of snippets, of passage-level keyword scores and of semantic
// vectors.
package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Target is the preferred passage length in bytes; passages run up to
// twice that before a cut is forced.
const Target = 1500

// Split cuts text at paragraph breaks when it can, else at sentence ends,
// else at spaces. Passages are trimmed; empty text gives no passages.
func Split(text string) []string {
	spans := Spans(text)
	out := make([]string, len(spans))
	for i, sp := range spans {
		out[i] = text[sp.Start:sp.End]
	}
	return out
}

// Span is a passage's place in the text it was cut from, in bytes: what
// is said of a stretch of the text (the page it was read from) is said of
// the passages that hold it.
type Span struct{ Start, End int }

// Spans are the places of Split's passages in text.
func Spans(text string) []Span {
	var out []Span
	for at := 0; at < len(text); {
		rest := strings.TrimLeftFunc(text[at:], unicode.IsSpace)
		at = len(text) - len(rest)
		cut := len(rest)
		if len(rest) > 2*Target {
			cut = cutPoint(rest)
		}
		if t := strings.TrimRightFunc(rest[:cut], unicode.IsSpace); t != "" {
			out = append(out, Span{Start: at, End: at + len(t)})
		}
		at += cut
	}
	return out
}

// cutPoint picks where the first passage of text ends: the last paragraph
// break in [Target/2, 2*Target), else the last sentence end, else the last
// space, else a rune boundary at 2*Target.
func cutPoint(text string) int {
	window := text[:2*Target]
	lo := Target / 2
	if i := strings.LastIndex(window, "\n\n"); i >= lo {
		return i + 2
	}
	for i := len(window) - 2; i >= lo; i-- {
		if (window[i] == '.' || window[i] == '?' || window[i] == '!' || window[i] == '\n') && isSpace(window[i+1]) {
			return i + 1
		}
	}
	if i := strings.LastIndexAny(window, " \t"); i >= lo {
		return i + 1
	}
	// A rune starts at most UTFMax-1 bytes back; a longer run of
	// continuation bytes is not UTF-8, and cutting it anywhere is as good
	// (walking back to 0 would cut nothing, forever).
	for cut := 2 * Target; cut > 2*Target-utf8.UTFMax; cut-- {
		if utf8.RuneStart(text[cut]) {
			return cut
		}
	}
	return 2 * Target
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }
