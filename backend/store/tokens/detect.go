package tokens

import (
	"unicode"

	"github.com/abadojack/whatlanggo"
)

// detectSample is how much of a text its language is told from: a few
// pages say it as surely as a book.
const detectSample = 16 << 10

// Detect returns the language of a text as an ISO 639-1 code ("de", "ja"),
// or "" when it cannot be told: too little text, or no language sure
// enough. Han characters without kana are Chinese, with kana Japanese.
func Detect(text string) string {
	if len(text) > detectSample {
		text = text[:detectSample]
		for len(text) > 0 && !utf8Start(text[len(text)-1]) {
			text = text[:len(text)-1] // not inside a character
		}
	}
	if lang := byScript(text); lang != "" {
		return lang
	}
	info := whatlanggo.Detect(text)
	if !info.IsReliable() {
		return ""
	}
	return info.Lang.Iso6391()
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
