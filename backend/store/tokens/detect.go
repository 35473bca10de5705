package tokens

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// detectSample is how much of a text its language is told from: a few
// pages say it as surely as a book.
const detectSample = 16 << 10

// detectPiece is the size of the pieces whose languages are told one by
// one. whatlanggo's confidence falls below zero on a long text (its
// scores' spread grows with the length), so a whole page is never
// "reliable": told at once, a fifth of the German and most of the Polish
// and Russian manual pages had no language. A piece of a kilobyte is told
// surely, and pieces in another language (an English option list in a
// German manual) are outvoted.
const detectPiece = 1 << 10

// detectPieces is the most pieces told: spread over the sample, they see
// its parts as all of them would, and telling one costs about a tenth of
// a millisecond per language of its script, so sixteen cost a file 12 ms
// where one whole sample cost 5 ms.
const detectPieces = 6

// Detect returns the language of a text as an ISO 639-1 code ("de", "ja"),
// or "" when it cannot be told: too little text, or no language sure
// enough. Han characters without kana are Chinese, with kana Japanese.
// A longer text is told piece by piece, and the language of most of the
// pieces told surely is its language.
func Detect(text string) string {
	text = cutAtRune(text, detectSample)
	if lang := byScript(text); lang != "" {
		return lang
	}
	votes := map[string]int{}
	for _, piece := range pieces(text) {
		if info := whatlanggo.Detect(piece); info.IsReliable() {
			votes[info.Lang.Iso6391()]++
		}
	}
	return elected(votes)
}

// pieces cuts text into pieces of about detectPiece bytes, at most
// detectPieces of them, spread evenly over it, each starting at a word; a
// text of up to that many pieces is cut whole, with no short last piece
// (told least surely).
func pieces(text string) []string {
	var out []string
	if len(text) <= detectPieces*detectPiece {
		for rest := text; rest != ""; {
			piece := cutAtSpace(rest, detectPiece)
			rest = rest[len(piece):]
			if len(rest) < detectPiece/2 {
				piece, rest = piece+rest, ""
			}
			out = append(out, piece)
		}
		return out
	}
	step := len(text) / detectPieces
	for i := range detectPieces {
		rest := text[wordStart(text, i*step):]
		out = append(out, cutAtSpace(rest, detectPiece))
	}
	return out
}

// wordStart is the first place at or after at where a word starts (after a
// space, near), else where a character does.
func wordStart(text string, at int) int {
	if at == 0 {
		return 0
	}
	if i := strings.IndexFunc(text[at:], unicode.IsSpace); i >= 0 && i < detectPiece/2 {
		_, size := utf8.DecodeRuneInString(text[at+i:])
		return at + i + size
	}
	for at < len(text) && !utf8Start(text[at]) {
		at++
	}
	return at
}

// elected is the language most pieces are in, ties to the first code;
// but English, with a language of at least two pieces and half as many as
// English's, yields to it. Pieces of English in a text of another
// language are common (a manual's options, code, quotations), the
// reverse rare; and a text in another language keeps its words' English
// stems beside their own, so an English text taken for another language
// is found as before, where the reverse loses the language's stems.
func elected(votes map[string]int) string {
	best, other := "", ""
	for lang, n := range votes {
		if best == "" || n > votes[best] || n == votes[best] && lang < best {
			best = lang
		}
		if lang != English && (other == "" || n > votes[other] || n == votes[other] && lang < other) {
			other = lang
		}
	}
	if best == English && other != "" && votes[other] >= 2 && 2*votes[other] >= votes[English] {
		return other
	}
	return best
}

// cutAtRune is text's first n bytes at most, not inside a character.
func cutAtRune(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8Start(text[n]) { // text[n] is the first byte left out
		n--
	}
	return text[:n]
}

// cutAtSpace is text's first n bytes or so, ending after a space where
// one is near (a word is not cut in two), else not inside a character.
func cutAtSpace(text string, n int) string {
	head := cutAtRune(text, n)
	if len(head) == len(text) {
		return head
	}
	if i := strings.LastIndexFunc(head, unicode.IsSpace); i > n/2 {
		return head[:i+1]
	}
	if head == "" { // n is inside the first character
		_, size := utf8.DecodeRuneInString(text)
		return text[:size]
	}
	return head
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// byScript tells Chinese, Japanese and Korean by their scripts, which
// trigram statistics confuse: kana make a text Japanese, Hangul Korean,
// Han alone Chinese, when such characters are most of its letters.
func byScript(text string) string {
	var letters, han, kana, hangul int
	for _, r := range text {
		switch {
		case !unicode.IsLetter(r):
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Han, r):
			han++
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	cjk := han + kana + hangul
	switch {
	case letters == 0 || cjk*3 < letters:
		return ""
	case kana > 0 && kana*20 >= cjk:
		return "ja"
	case hangul > han:
		return "ko"
	}
	return "zh"
}
