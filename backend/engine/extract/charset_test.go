package extract

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// legacyTexts are texts in the charsets the detector is for, with a
// phrase each must give back.
var legacyTexts = []struct {
	name, text, phrase string
	enc                encoding.Encoding
}{
	{"cp1251.txt", strings.Repeat("Отчёт о работе библиотеки маяка. Смотритель хранил атласы, таблицы приливов и детективные романы. ", 6), "библиотеки маяка", charmap.Windows1251},
	{"sjis.txt", strings.Repeat("港の事務所は七時に開き、最初のフェリーは八時過ぎに出発した。灯台守の小屋には小さな図書館があった。", 6), "灯台守の小屋", japanese.ShiftJIS},
	{"gbk.txt", strings.Repeat("港口办公室七点开门，第一班渡轮八点多出发。灯塔看守人的小屋里有一个小图书馆。", 6), "灯塔看守人", simplifiedchinese.GBK},
	{"euckr.txt", strings.Repeat("항구 사무소는 일곱 시에 문을 열었고 첫 번째 여객선은 여덟 시가 조금 지나 출발했다. ", 6), "항구 사무소는", korean.EUCKR},
	{"latin1.txt", strings.Repeat("Le café du quai n'avait pas encore allumé ses fours; la façade penchait vers la mer. ", 6), "allumé ses fours", charmap.ISO8859_1},
	{"utf16le-nobom.txt", strings.Repeat("The harbour office opened at seven. Zürich ferry. ", 6), "Zürich ferry", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
	{"utf16be-nobom.txt", strings.Repeat("Отчёт о работе. The harbour office opened at seven. ", 6), "Отчёт о работе", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
}

// TestLegacyCharsets: text files in legacy charsets, and UTF-16 without a
// byte order mark, are read as the right characters.
func TestLegacyCharsets(t *testing.T) {
	for _, c := range legacyTexts {
		data, err := c.enc.NewEncoder().Bytes([]byte(c.text))
		if err != nil {
			t.Fatal(c.name, err)
		}
		doc := extractBytes(t, c.name, data, Options{})
		if doc.Format != "text" || !strings.Contains(doc.Text, c.phrase) {
			t.Errorf("%s: format %q text %.80q", c.name, doc.Format, doc.Text)
		}
	}
}
