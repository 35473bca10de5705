// Package pdftest writes small PDFs for tests: one line of text a page,
// in a standard font, so that what each page says is known.
package pdftest

import (
	"bytes"
	"fmt"
	"strings"
)

// Pages is a PDF with one page for each of texts, each a line of
// Helvetica; an empty text is a page without text. A text must not hold
// parentheses or backslashes (it is written as a PDF string as it is).
func Pages(texts ...string) []byte {
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n")
	obj := func(n int, body string) { fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", n, body) }
	kids := make([]string, len(texts))
	for i := range texts {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(texts)))
	obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i, text := range texts {
		obj(4+2*i, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		content := ""
		if text != "" {
			content = "BT /F1 12 Tf 72 700 Td (" + text + ") Tj ET"
		}
		fmt.Fprintf(&out, "%d 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", 5+2*i, len(content), content)
	}
	out.WriteString("trailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return out.Bytes()
}
