package extract

import (
	"bytes"
	"context"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// extractHTML keeps only the visible text. Markup is several times larger
// than its text, so it may read past the text limit, within bounds.
func extractHTML(s *source, d *Document) error {
	src, ok := htmlSource(s)
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	page, err := htmlText(s.ctx, strings.NewReader(src), s.text)
	d.Title = page.title
	if page.author != "" {
		d.Meta = map[string]string{"author": page.author}
	}
	return err
}

// htmlSource decodes the page: UTF-8 when valid, else the charset its
// <meta> declares, else Windows-1252 as browsers do.
func htmlSource(s *source) (string, bool) {
	if isBinary(s.head) {
		return "", false
	}
	raw := s.head
	if int64(len(raw)) < s.size {
		raw = make([]byte, min(s.size, int64(markupBudget(s))))
		n, _ := s.r.ReadAt(raw, 0)
		raw = raw[:n]
	}
	if isUTF16(raw) || utf8.Valid(raw) || int64(len(raw)) < s.size {
		return decodeText(raw, int64(len(raw)) == s.size), true
	}
	enc, name, _ := charset.DetermineEncoding(raw, "text/html")
	if name == "utf-8" || name == "windows-1252" {
		return decodeText(raw, true), true
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return decodeText(raw, true), true
	}
	return string(out), true
}

func markupBudget(s *source) int {
	return int(min(int64(s.opt.MaxTextBytes)*4, 256<<20))
}

type htmlPage struct {
	title, author string
}

// blockTags end a line of text before and after them.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Tr: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Section: true,
	atom.Article: true, atom.Header: true, atom.Footer: true, atom.Blockquote: true, atom.Pre: true,
	atom.Table: true, atom.Ul: true, atom.Ol: true, atom.Dt: true, atom.Dd: true, atom.Hr: true,
	atom.Nav: true, atom.Aside: true, atom.Main: true, atom.Figcaption: true, atom.Caption: true,
	atom.Dl: true, atom.Form: true, atom.Address: true, atom.Details: true, atom.Summary: true,
}

// hiddenTags hold no visible text.
var hiddenTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Iframe: true, atom.Object: true, atom.Svg: true, atom.Math: true,
}

// htmlText streams tokens into out and returns the page's title (the <title>
// or else the first <h1>) and author.
func htmlText(ctx context.Context, r io.Reader, out *sink) (htmlPage, error) {
	var page htmlPage
	var title, h1 strings.Builder
	z := html.NewTokenizer(r)
	hidden, inTitle, inH1, pre, h1Done := 0, false, false, 0, false
	var nameBuf [16]byte
	tk := tick{ctx: ctx}
	for !out.full() {
		if err := tk.err(); err != nil {
			return page, err
		}
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			page.title = firstNonEmpty(title.String(), h1.String())
			if err := z.Err(); err != io.EOF {
				return page, err
			}
			return page, nil
		case html.TextToken:
			text := htmlTokenText(z)
			switch {
			case inTitle:
				title.Write(text)
			case hidden > 0:
			default:
				if inH1 {
					h1.Write(text)
					h1.WriteByte(' ')
				}
				writeHTMLText(out, text, pre > 0)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			a := atom.Lookup(rawTagName(z.Raw(), &nameBuf))
			switch {
			case hiddenTags[a]:
				if tt == html.StartTagToken {
					hidden++
				}
			case a == atom.Title:
				inTitle = true
			case a == atom.H1 && !h1Done:
				inH1 = true
			case a == atom.Pre:
				pre++
			case a == atom.Meta:
				readMeta(z, &page)
			case a == atom.Td || a == atom.Th:
				out.sp()
			}
			if blockTags[a] {
				out.nl()
			}
		case html.EndTagToken:
			a := atom.Lookup(rawTagName(z.Raw(), &nameBuf))
			switch {
			case hiddenTags[a]:
				hidden = max(hidden-1, 0)
			case a == atom.Title:
				inTitle = false
			case a == atom.H1 && inH1:
				inH1, h1Done = false, true
			case a == atom.Pre:
				pre = max(pre-1, 0)
			}
			if blockTags[a] {
				out.nl()
			}
		}
	}
	page.title = firstNonEmpty(title.String(), h1.String())
	return page, nil
}

// rawTagName lower-cases the name of a raw tag into buf. The tokenizer's
// TagName copies every name; names longer than any known atom are cut,
// which leaves them unknown, as they are.
func rawTagName(raw []byte, buf *[16]byte) []byte {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	n := 0
	for ; i < len(raw) && n < len(buf); i++ {
		c := raw[i]
		if isSpace(c) || c == '/' || c == '>' {
			break
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return buf[:n]
}

// htmlTokenText returns a text token's text. The tokenizer's Text copies
// every token; plain runs without references, NULs or CRs need no copy.
func htmlTokenText(z *html.Tokenizer) []byte {
	raw := z.Raw()
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, 0) < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return raw
	}
	return z.Text()
}

// writeHTMLText collapses white space as a browser does, outside <pre>.
func writeHTMLText(out *sink, text []byte, pre bool) {
	if pre {
		out.Write(text)
		return
	}
	writeCollapsed(out, text)
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' }

func readMeta(z *html.Tokenizer, page *htmlPage) {
	var name, content string
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "name":
			name = strings.ToLower(string(v))
		case "content":
			content = string(v)
		}
		if !more {
			break
		}
	}
	if name == "author" && page.author == "" {
		page.author = strings.TrimSpace(content)
	}
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
