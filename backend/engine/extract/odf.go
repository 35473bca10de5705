package extract

import (
	"errors"
	"strings"
)

// OpenDocument text, spreadsheets and presentations share content.xml and
// meta.xml; only the table and page elements differ.
func extractODF(s *source, d *Document) error {
	z, err := openZip(s)
	if err != nil {
		return err
	}
	odfMeta(z, d)
	heading := ""
	if err := z.walk("content.xml", odfVisitor(s, &heading)); err != nil {
		return partErr(d.Format, "content.xml", err)
	}
	if d.Title == "" {
		d.Title = heading
	}
	return nil
}

func odfMeta(z *zipDoc, d *Document) {
	var cur string
	var b strings.Builder
	props := map[string]string{}
	err := z.walkMeta("meta.xml", xmlVisitor{
		start: func(e *xmlElem) { cur = e.local; b.Reset() },
		text:  func(t []byte) { b.Write(t) },
		end: func(local string) {
			if local == cur && props[cur] == "" {
				props[cur] = strings.TrimSpace(b.String())
			}
			cur = ""
		},
	})
	if err != nil && !errors.Is(err, errMissing) {
		return
	}
	d.Title = props["title"]
	setMeta(d, "author", firstNonEmpty(props["initial-creator"], props["creator"]))
	setMeta(d, "created", props["creation-date"])
	setMeta(d, "modified", props["date"])
}

// odfVisitor writes paragraphs and headings a line each, cells separated,
// sheet names on their own line; the first heading is remembered.
func odfVisitor(s *source, heading *string) xmlVisitor {
	inBody, inHeading, start, skip := false, false, 0, 0
	return xmlVisitor{
		start: func(e *xmlElem) {
			switch e.local {
			case "body":
				inBody = true
			case "p":
				s.text.nl()
			case "h":
				s.text.nl()
				inHeading, start = *heading == "", s.text.len()
			case "s":
				s.text.WriteString(" ")
			case "tab":
				s.text.WriteString("\t")
			case "line-break":
				s.text.WriteString("\n")
			case "table":
				if n := e.attr("name"); n != "" && e.prefix == "table" {
					s.text.nl()
					s.text.WriteString(n)
					s.text.WriteString("\n")
				}
			case "table-cell":
				s.text.sp()
			case "automatic-styles", "font-face-decls", "tracked-changes":
				skip++
			}
		},
		end: func(local string) {
			switch local {
			case "p", "table-row", "page":
				s.text.nl()
			case "h":
				if inHeading {
					*heading = strings.TrimSpace(s.text.since(start))
					inHeading = false
				}
				s.text.nl()
			case "automatic-styles", "font-face-decls", "tracked-changes":
				skip = max(skip-1, 0)
			}
		},
		text: func(t []byte) {
			if inBody && skip == 0 {
				s.text.Write(t)
			}
		},
	}
}
