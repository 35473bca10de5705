package extract

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Office Open XML: zip files of XML parts. Text lives in w:t (Word), a:t
// (PowerPoint) and shared strings or inline cells (Excel).

// coreProps reads docProps/core.xml: title, author and dates.
func coreProps(z *zipDoc, d *Document) {
	var cur string
	var b strings.Builder
	props := map[string]string{}
	err := z.walkMeta("docProps/core.xml", xmlVisitor{
		start: func(e *xmlElem) { cur = e.local; b.Reset() },
		text:  func(t []byte) { b.Write(t) },
		end: func(local string) {
			if local == cur && props[cur] == "" {
				props[cur] = strings.TrimSpace(b.String())
			}
			cur = ""
		},
	})
	if err != nil {
		return
	}
	d.Title = props["title"]
	setMeta(d, "author", props["creator"])
	setMeta(d, "created", props["created"])
	setMeta(d, "modified", props["modified"])
}

func setMeta(d *Document, k, v string) {
	if v = strings.TrimSpace(v); v == "" {
		return
	}
	if !utf8.ValidString(v) {
		v = decode1252([]byte(v))
	}
	if d.Meta == nil {
		d.Meta = map[string]string{}
	}
	d.Meta[k] = cutUTF8(v, 500)
}

func missingPart(format, part string) error {
	return warnf("%s without its main part (%s): contents not indexed", strings.ToUpper(format), part)
}

// partErr phrases a failure to read a required part.
func partErr(format, part string, err error) error {
	if errors.Is(err, errMissing) {
		return missingPart(format, part)
	}
	return err
}

func extractDOCX(s *source, d *Document) error {
	z, err := openZip(s)
	if err != nil {
		return err
	}
	coreProps(z, d)
	heading := ""
	if err := z.walk("word/document.xml", wordVisitor(s, &heading)); err != nil {
		return partErr("docx", "word/document.xml", err)
	}
	for _, part := range []string{"word/footnotes.xml", "word/endnotes.xml"} {
		if err := z.walk(part, wordVisitor(s, nil)); err != nil && !errors.Is(err, errMissing) {
			return err
		}
	}
	if d.Title == "" {
		d.Title = heading
	}
	return nil
}

// wordVisitor writes runs' text; paragraphs styled as a title or first-level
// heading give the first heading.
func wordVisitor(s *source, heading *string) xmlVisitor {
	inText, isHeading, start := false, false, 0
	return xmlVisitor{
		start: func(e *xmlElem) {
			switch e.local {
			case "t":
				inText = true
			case "tab":
				s.text.WriteString("\t")
			case "br", "cr":
				s.text.WriteString("\n")
			case "p":
				s.text.nl()
				start, isHeading = s.text.len(), false
			case "pStyle":
				v := strings.ToLower(strings.ReplaceAll(e.attr("val"), " ", ""))
				isHeading = v == "title" || v == "heading1"
			}
		},
		end: func(local string) {
			switch local {
			case "t":
				inText = false
			case "p":
				if isHeading && heading != nil && *heading == "" {
					*heading = strings.TrimSpace(s.text.since(start))
				}
				s.text.nl()
			}
		},
		text: func(t []byte) {
			if inText {
				s.text.Write(t)
			}
		},
	}
}

func extractXLSX(s *source, d *Document) error {
	z, err := openZip(s)
	if err != nil {
		return err
	}
	coreProps(z, d)
	shared, err := sharedStrings(z)
	if err != nil && !errors.Is(err, errMissing) {
		return err
	}
	sheets, err := workbookSheets(z)
	if err != nil {
		return partErr("xlsx", "xl/workbook.xml", err)
	}
	setMeta(d, "sheets", fmt.Sprint(len(sheets)))
	for _, sh := range sheets {
		if s.text.full() {
			break
		}
		s.text.nl()
		s.text.WriteString(sh.name)
		s.text.WriteString("\n")
		if err := z.walk(sh.part, cellVisitor(s, shared)); err != nil && !errors.Is(err, errMissing) {
			return err
		}
	}
	return nil
}

// sharedStrings reads xl/sharedStrings.xml; its size is bounded by the
// archive's budget.
func sharedStrings(z *zipDoc) ([]string, error) {
	var out []string
	var b strings.Builder
	inT := false
	err := z.walkMeta("xl/sharedStrings.xml", xmlVisitor{
		start: func(e *xmlElem) {
			switch e.local {
			case "si":
				b.Reset()
			case "t":
				inT = true
			}
		},
		end: func(local string) {
			switch local {
			case "si":
				out = append(out, b.String())
			case "t":
				inT = false
			}
		},
		text: func(t []byte) {
			if inT {
				b.Write(t)
			}
		},
	})
	return out, err
}

type sheet struct{ name, part string }

// workbookSheets lists the sheets in workbook order with their parts.
func workbookSheets(z *zipDoc) ([]sheet, error) {
	rels, err := relationships(z, "xl/_rels/workbook.xml.rels", "xl")
	if err != nil && !errors.Is(err, errMissing) {
		return nil, err
	}
	var out []sheet
	err = z.walkMeta("xl/workbook.xml", xmlVisitor{start: func(e *xmlElem) {
		if e.local == "sheet" {
			out = append(out, sheet{name: e.attr("name"), part: rels[e.attr("id")]})
		}
	}})
	for i := range out {
		if out[i].part == "" {
			out[i].part = fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)
		}
	}
	return out, err
}

// relationships maps relationship ids to part names.
func relationships(z *zipDoc, part, base string) (map[string]string, error) {
	rels := map[string]string{}
	err := z.walkMeta(part, xmlVisitor{start: func(e *xmlElem) {
		if e.local == "Relationship" {
			target := e.attr("Target")
			if strings.HasPrefix(target, "/") {
				target = strings.TrimPrefix(target, "/")
			} else {
				target = path.Join(base, target)
			}
			rels[e.attr("Id")] = target
		}
	}})
	return rels, err
}

// cellVisitor writes a sheet's cells, tab-separated, a row per line.
func cellVisitor(s *source, shared []string) xmlVisitor {
	typ, inV, inT := "", false, false
	var v strings.Builder
	return xmlVisitor{
		start: func(e *xmlElem) {
			switch e.local {
			case "c":
				typ = e.attr("t")
				v.Reset()
			case "v":
				inV = true
			case "t":
				inT = true
			}
		},
		end: func(local string) {
			switch local {
			case "v":
				inV = false
			case "t":
				inT = false
			case "c":
				writeCell(s, typ, v.String(), shared)
			case "row":
				s.text.nl()
			}
		},
		text: func(t []byte) {
			if inV || inT {
				v.Write(t)
			}
		},
	}
}

func writeCell(s *source, typ, v string, shared []string) {
	if typ == "s" {
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(shared) {
			return
		}
		v = shared[i]
	}
	if v = strings.TrimSpace(v); v == "" {
		return
	}
	if c := s.text.last(); c != 0 && c != '\n' {
		s.text.WriteString("\t")
	}
	s.text.WriteString(v)
}

func extractPPTX(s *source, d *Document) error {
	z, err := openZip(s)
	if err != nil {
		return err
	}
	coreProps(z, d)
	slides := numberedParts(z, "ppt/slides/slide")
	if len(slides) == 0 {
		if z.files["ppt/presentation.xml"] == nil {
			return missingPart("pptx", "ppt/presentation.xml")
		}
		return nil
	}
	setMeta(d, "slides", fmt.Sprint(len(slides)))
	title := ""
	for i, part := range slides {
		t := &title
		if i > 0 {
			t = nil
		}
		if err := z.walk(part, slideVisitor(s, t)); err != nil {
			return err
		}
		notes := strings.Replace(part, "slides/slide", "notesSlides/notesSlide", 1)
		if err := z.walk(notes, slideVisitor(s, nil)); err != nil && !errors.Is(err, errMissing) {
			return err
		}
	}
	if d.Title == "" {
		d.Title = title
	}
	return nil
}

// numberedParts lists prefixN.xml parts in numeric order.
func numberedParts(z *zipDoc, prefix string) []string {
	type part struct {
		n    int
		name string
	}
	var parts []part
	for name := range z.files {
		num, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSuffix(num, ".xml")); err == nil && strings.HasSuffix(num, ".xml") {
			parts = append(parts, part{n, name})
		}
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].n < parts[j].n })
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.name
	}
	return out
}

// slideVisitor writes a:t runs; the title placeholder of the first slide
// stands in for a missing document title.
func slideVisitor(s *source, title *string) xmlVisitor {
	inText, inTitle, start := false, false, 0
	return xmlVisitor{
		start: func(e *xmlElem) {
			switch e.local {
			case "t":
				inText = true
			case "sp":
				inTitle, start = false, s.text.len()
			case "ph":
				if t := e.attr("type"); t == "title" || t == "ctrTitle" {
					inTitle = true
				}
			case "br":
				s.text.WriteString("\n")
			}
		},
		end: func(local string) {
			switch local {
			case "t":
				inText = false
			case "p":
				s.text.nl()
			case "sp":
				if inTitle && title != nil && *title == "" {
					*title = strings.TrimSpace(s.text.since(start))
				}
			}
		},
		text: func(t []byte) {
			if inText {
				s.text.Write(t)
			}
		},
	}
}
