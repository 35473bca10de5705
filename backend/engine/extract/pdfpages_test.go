package extract

import (
	"strings"
	"testing"

	"trove/backend/core"
	"trove/internal/pdftest"
)

// TestPDFPages: each page's text is marked with its page, a page without
// text gives no mark, and the text limit takes the pages it cut off.
func TestPDFPages(t *testing.T) {
	doc := extractBytes(t, "paged.pdf", pdftest.Pages("alpha harbour", "", "bravo lighthouse", "charlie ledger"), Options{})
	for word, page := range map[string]int{"alpha": 1, "bravo": 3, "charlie": 4} {
		at := strings.Index(doc.Text, word)
		if at < 0 {
			t.Fatalf("%q not in %q", word, doc.Text)
		}
		if got := doc.Pages.At(at); got != page {
			t.Errorf("%q is on page %d, want %d (pages %v, text %q)", word, got, page, doc.Pages, doc.Text)
		}
	}
	if len(doc.Pages) != 3 {
		t.Errorf("pages %v: want one start for each page with text", doc.Pages)
	}
	cut := extractBytes(t, "paged.pdf", pdftest.Pages("alpha harbour", "bravo lighthouse", "charlie ledger"), Options{MaxTextBytes: 20})
	for _, p := range cut.Pages {
		if p.At >= len(cut.Text) {
			t.Errorf("page %d starts at %d, past the cut text %q", p.Page, p.At, cut.Text)
		}
	}
	if plain := extractBytes(t, "notes.txt", []byte("no pages here"), Options{}); plain.Pages != nil {
		t.Errorf("plain text has pages %v", plain.Pages)
	}
}

// TestValidTextMovesPages: invalid bytes replaced before a page start move
// it with the text.
func TestValidTextMovesPages(t *testing.T) {
	text := "one \xff\xfe\xfd two three"
	pages := core.Pages{{At: 0, Page: 1}, {At: strings.Index(text, "three"), Page: 2}, {At: len(text), Page: 3}}
	got, moved := validText(text, pages)
	if got != "one \uFFFD two three" {
		t.Fatalf("text %q", got)
	}
	if at := strings.Index(got, "three"); moved.At(at) != 2 || moved.At(at-1) != 1 {
		t.Errorf("pages %v do not follow the text %q", moved, got)
	}
	if len(moved) != 2 {
		t.Errorf("a page starting at the end of the text is kept: %v", moved)
	}
}

// TestOCRTextPages: text OCR read of a PDF's pages is marked with them,
// after the text layer of the others, and within the text limit.
func TestOCRTextPages(t *testing.T) {
	doc := Document{Text: "layer text", Pages: core.Pages{{At: 0, Page: 1}}}
	if !addOCRText(&doc, []ocrText{{page: 2, text: "  scanned words \n"}, {page: 3, text: " "}, {page: 4, text: "more scanned"}}, 100) {
		t.Fatal("nothing added")
	}
	if want := "layer text\n\nscanned words\n\nmore scanned"; doc.Text != want {
		t.Errorf("text %q, want %q", doc.Text, want)
	}
	if got := doc.Pages.At(strings.Index(doc.Text, "scanned")); got != 2 {
		t.Errorf("scanned words on page %d, want 2 (%v)", got, doc.Pages)
	}
	if got := doc.Pages.At(strings.Index(doc.Text, "more")); got != 4 {
		t.Errorf("more on page %d, want 4 (%v)", got, doc.Pages)
	}
	full := Document{Text: "0123456789"}
	if addOCRText(&full, []ocrText{{page: 2, text: "over"}}, 11) || full.Pages != nil {
		t.Errorf("past the limit: %+v", full)
	}
}
