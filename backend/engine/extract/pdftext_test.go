package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// onePagePDF is a PDF of one page whose content stream is content,
// written through filter ("" for none), with font F1 described by font.
func onePagePDF(content []byte, filter, font string) []byte {
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n")
	obj := func(n int, body string) { fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", n, body) }
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	f := ""
	if filter != "" {
		f = " /Filter /" + filter
	}
	fmt.Fprintf(&out, "4 0 obj\n<< /Length %d%s >>\nstream\n", len(content), f)
	out.Write(content)
	out.WriteString("\nendstream\nendobj\n")
	obj(5, font)
	out.WriteString("trailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return out.Bytes()
}

// helvetica has a width of 500 for every code.
const helvetica = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 126 /Widths [95 [500]] >>"

func init() {
	// the /Widths array of helvetica: 95 times 500
	w := strings.Repeat("500 ", 95)
	helveticaFont = strings.Replace(helvetica, "95 [500]", w, 1)
}

var helveticaFont string

func pdfTextOf(t *testing.T, data []byte) string {
	t.Helper()
	doc := extractBytes(t, "page.pdf", data, Options{})
	if doc.Warning != "" {
		t.Fatalf("warning %q", doc.Warning)
	}
	return doc.Text
}

// lzwLiterals encodes b with PDF's LZW using literal codes only, clearing
// the table often enough that codes stay 9 bits wide.
func lzwLiterals(b []byte) []byte {
	var out []byte
	var acc uint32
	n := 0
	put := func(code uint32) {
		acc = acc<<9 | code
		n += 9
		for n >= 8 {
			out = append(out, byte(acc>>(n-8)))
			n -= 8
		}
	}
	for i, c := range b {
		if i%200 == 0 {
			put(256)
		}
		put(uint32(c))
	}
	put(257)
	if n > 0 {
		out = append(out, byte(acc<<(8-n)))
	}
	return out
}

// runLength encodes b as literal runs, and a run of repeats at the end.
func runLength(b []byte) []byte {
	var out []byte
	for len(b) > 0 {
		n := min(len(b), 128)
		out = append(out, byte(n-1))
		out = append(out, b[:n]...)
		b = b[n:]
	}
	out = append(out, 257-5, ' ') // five spaces
	return append(out, 128)
}

func TestPDFFiltersLZWAndRunLength(t *testing.T) {
	content := []byte("BT /F1 12 Tf 72 700 Td (wallaby lzwpancake) Tj ET")
	for name, pdf := range map[string][]byte{
		"LZWDecode":       onePagePDF(lzwLiterals(content), "LZWDecode", helveticaFont),
		"RunLengthDecode": onePagePDF(runLength(content), "RunLengthDecode", helveticaFont),
	} {
		if got := pdfTextOf(t, pdf); !strings.Contains(got, "wallaby lzwpancake") {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// TestPDFTwoColumnsReadInOrder: lines of two columns drawn alternately
// are read column by column.
func TestPDFTwoColumnsReadInOrder(t *testing.T) {
	var c strings.Builder
	c.WriteString("BT /F1 10 Tf\n")
	for i := 0; i < 6; i++ {
		y := 700 - 12*i
		fmt.Fprintf(&c, "1 0 0 1 72 %d Tm (left%d alpha beta gamma) Tj\n", y, i)
		fmt.Fprintf(&c, "1 0 0 1 320 %d Tm (right%d delta epsilon zeta) Tj\n", y, i)
	}
	c.WriteString("ET")
	got := pdfTextOf(t, onePagePDF([]byte(c.String()), "", helveticaFont))
	words := strings.Fields(got)
	var order []string
	for _, w := range words {
		if strings.HasPrefix(w, "left") || strings.HasPrefix(w, "right") {
			order = append(order, w)
		}
	}
	want := "left0 left1 left2 left3 left4 left5 right0 right1 right2 right3 right4 right5"
	if strings.Join(order, " ") != want {
		t.Errorf("order %q\ntext %q", order, got)
	}
}

// TestPDFSpacesFromPositions: words placed apart without a space glyph
// (kerned TJ pieces, justified character spacing, separate Td moves) are
// parted, and kerning inside a word is not.
func TestPDFSpacesFromPositions(t *testing.T) {
	content := "BT /F1 10 Tf 72 700 Td [(Kan) 20 (ga) -400 (roo)] TJ 60 0 Td (jumps) Tj -60 -12 Td " +
		"3 Tc (ab) Tj 0 Tc 40 0 Td (cd) Tj ET"
	got := pdfTextOf(t, onePagePDF([]byte(content), "", helveticaFont))
	for _, want := range []string{"Kanga roo jumps", "a b cd"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}

// TestPDFEncodings: /BaseEncoding, /Differences names from the full Adobe
// Glyph List (Cyrillic, uniXXXX, ligatures), and StandardEncoding for a
// Type 1 font without an encoding.
func TestPDFEncodings(t *testing.T) {
	mac := "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /BaseEncoding /MacRomanEncoding /Differences [65 /afii10017 /uni0416 /f_f_i /Zcaron] >> >>"
	got := pdfTextOf(t, onePagePDF([]byte(`BT /F1 10 Tf 72 700 Td (\216t\216 ABCD) Tj ET`), "", mac))
	if !strings.Contains(got, "été АЖffiŽ") {
		t.Errorf("MacRoman and Differences: %q", got)
	}
	std := "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>"
	got = pdfTextOf(t, onePagePDF([]byte(`BT /F1 10 Tf 72 700 Td (\140quoted\047 \256nd) Tj ET`), "", std))
	if !strings.Contains(got, "‘quoted’ ﬁnd") {
		t.Errorf("StandardEncoding: %q", got)
	}
}

// TestPDFCIDFontWithoutToUnicode: a Chromium PDF whose ToUnicode maps
// were removed (testdata/cid-no-tounicode.pdf) is read through its
// embedded TrueType fonts' cmap tables.
func TestPDFCIDFontWithoutToUnicode(t *testing.T) {
	doc, err := Extract(t.Context(), "testdata/cid-no-tounicode.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "the first ferry") || !strings.Contains(doc.Text, "Zürich-bound") {
		t.Errorf("%+v", doc)
	}
}
