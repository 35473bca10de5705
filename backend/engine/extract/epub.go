package extract

import (
	"errors"
	"net/url"
	"path"
	"strings"
)

// extractEPUB reads the chapters in spine order; the package document
// (OPF) named by META-INF/container.xml gives the title and the order.
func extractEPUB(s *source, d *Document) error {
	z, err := openZip(s)
	if err != nil {
		return err
	}
	opf := ""
	err = z.walkMeta("META-INF/container.xml", xmlVisitor{start: func(e *xmlElem) {
		if e.local == "rootfile" && opf == "" {
			opf = e.attr("full-path")
		}
	}})
	if err != nil {
		return partErr("epub", "META-INF/container.xml", err)
	}
	pkg, err := readOPF(z, opf)
	if err != nil {
		return partErr("epub", opf, err)
	}
	d.Title = pkg.title
	setMeta(d, "author", pkg.author)
	setMeta(d, "language", pkg.language)
	for _, href := range pkg.chapters() {
		if s.text.full() {
			break
		}
		if err := epubChapter(z, href); err != nil && !errors.Is(err, errMissing) {
			return err
		}
	}
	return nil
}

type opfPackage struct {
	title, author, language string
	dir                     string
	hrefs                   map[string]string // manifest id -> zip path
	spine                   []string          // manifest ids
}

func readOPF(z *zipDoc, name string) (*opfPackage, error) {
	p := &opfPackage{dir: path.Dir(name), hrefs: map[string]string{}}
	var cur string
	var b strings.Builder
	err := z.walkMeta(name, xmlVisitor{
		start: func(e *xmlElem) {
			cur = e.local
			b.Reset()
			switch cur {
			case "item":
				p.hrefs[e.attr("id")] = p.resolve(e.attr("href"))
			case "itemref":
				p.spine = append(p.spine, e.attr("idref"))
			}
		},
		text: func(t []byte) { b.Write(t) },
		end: func(local string) {
			v := strings.TrimSpace(b.String())
			switch {
			case local != cur:
			case cur == "title" && p.title == "":
				p.title = v
			case cur == "creator" && p.author == "":
				p.author = v
			case cur == "language" && p.language == "":
				p.language = v
			}
			cur = ""
		},
	})
	return p, err
}

func (p *opfPackage) resolve(href string) string {
	if u, err := url.PathUnescape(href); err == nil {
		href = u
	}
	href, _, _ = strings.Cut(href, "#")
	if p.dir == "." || p.dir == "" {
		return path.Clean(href)
	}
	return path.Join(p.dir, href)
}

func (p *opfPackage) chapters() []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range p.spine {
		if h := p.hrefs[id]; h != "" && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

func epubChapter(z *zipDoc, name string) error {
	rc, err := z.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	z.s.text.nl()
	_, err = htmlText(z.s.ctx, rc, z.s.text)
	return err
}
