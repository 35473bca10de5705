package extract

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// The data formats share one rule: text that does not parse is still text,
// indexed as it is, with Format "text".

func plainFallback(s *source, d *Document, src string) error {
	s.text.reset()
	s.text.set(src)
	d.Format = "text"
	return nil
}

// extractCSV writes one line per record with tab-separated fields.
func extractCSV(s *source, d *Document) error {
	src, ok := textOf(s, s.opt.MaxTextBytes+4)
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	r := csv.NewReader(strings.NewReader(src))
	r.Comma = csvComma(s.ext, src)
	r.LazyQuotes, r.FieldsPerRecord, r.ReuseRecord = true, -1, true
	tk := tick{ctx: s.ctx}
	for !s.text.full() {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return plainFallback(s, d, src)
		}
		if err := tk.err(); err != nil {
			return err
		}
		for i, f := range rec {
			if i > 0 {
				s.text.WriteString("\t")
			}
			s.text.WriteString(f)
		}
		s.text.WriteString("\n")
	}
	return nil
}

func csvComma(ext, src string) rune {
	if ext == ".tsv" || ext == ".tab" {
		return '\t'
	}
	line, _, _ := strings.Cut(src[:min(len(src), 4096)], "\n")
	best, comma := strings.Count(line, ","), ','
	for _, c := range []rune{'\t', ';', '|'} {
		if n := strings.Count(line, string(c)); n > best {
			best, comma = n, c
		}
	}
	return comma
}

// extractJSON writes keys and string values; numbers and punctuation carry
// little meaning for a search.
func extractJSON(s *source, d *Document) error {
	src, ok := textOf(s, markupBudget(s))
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	if int64(len(s.head)) < s.size && len(src) >= markupBudget(s) || !json.Valid([]byte(src)) {
		return plainFallback(s, d, src)
	}
	return jsonStrings(s, src)
}

// jsonStrings scans already-validated JSON linearly, so nesting costs no
// stack; the depth cap only bounds what is worth reading.
func jsonStrings(s *source, src string) error {
	depth := 0
	tk := tick{ctx: s.ctx}
	for i := 0; i < len(src) && !s.text.full(); i++ {
		switch src[i] {
		case '{', '[':
			if depth++; depth > maxNesting {
				return warnf("JSON nested deeper than %d levels: the rest is not indexed", maxNesting)
			}
		case '}', ']':
			depth--
		case '"':
			if err := tk.err(); err != nil {
				return err
			}
			end := jsonStringEnd(src, i)
			str := jsonUnquote(src[i:end])
			i = end - 1
			if isKey(src, end) {
				s.text.nl()
				s.text.WriteString(str)
				s.text.WriteString(": ")
			} else {
				s.text.WriteString(str)
				s.text.WriteString("\n")
			}
		}
	}
	return nil
}

// jsonStringEnd returns the index just past the string starting at i.
func jsonStringEnd(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

func jsonUnquote(q string) string {
	if !strings.Contains(q, `\`) {
		return strings.Trim(q, `"`)
	}
	var out string
	if json.Unmarshal([]byte(q), &out) != nil {
		return strings.Trim(q, `"`)
	}
	return out
}

func isKey(src string, i int) bool {
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}

// extractYAML walks every document's node tree without following aliases,
// so a "billion laughs" file stays small.
func extractYAML(s *source, d *Document) error {
	src, ok := textOf(s, structMaxBytes+1)
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	if len(src) > structMaxBytes || bracketDepth(src) > maxNesting {
		return plainFallback(s, d, src)
	}
	var docs []*yaml.Node
	err := protect(func() error {
		dec := yaml.NewDecoder(strings.NewReader(src))
		for {
			n := new(yaml.Node)
			if err := dec.Decode(n); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			docs = append(docs, n)
		}
	})
	if err != nil {
		return plainFallback(s, d, src)
	}
	if len(docs) > 0 {
		d.Title = yamlTitle(docs[0])
	}
	for _, n := range docs {
		if err := yamlText(s, n); err != nil {
			return err
		}
	}
	return nil
}

func yamlText(s *source, root *yaml.Node) error {
	type item struct {
		n     *yaml.Node
		depth int
		key   bool // a mapping key: its value follows on the same line
	}
	stack := []item{{n: root}}
	tk := tick{ctx: s.ctx}
	for len(stack) > 0 && !s.text.full() {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := tk.err(); err != nil {
			return err
		}
		if it.depth > maxNesting {
			return warnf("YAML nested deeper than %d levels: the rest is not indexed", maxNesting)
		}
		switch it.n.Kind {
		case yaml.ScalarNode:
			if it.key {
				s.text.nl()
				s.text.WriteString(it.n.Value)
				s.text.WriteString(": ")
			} else if it.n.Tag == "!!str" || it.n.Tag == "" {
				s.text.WriteString(it.n.Value)
				s.text.WriteString("\n")
			}
		case yaml.DocumentNode, yaml.SequenceNode, yaml.MappingNode:
			mapping := it.n.Kind == yaml.MappingNode
			for i := len(it.n.Content) - 1; i >= 0; i-- {
				stack = append(stack, item{it.n.Content[i], it.depth + 1, mapping && i%2 == 0})
			}
		}
	}
	return nil
}

// yamlTitle reads a top-level "title" key, as front matter and site
// configurations have.
func yamlTitle(doc *yaml.Node) string {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return ""
	}
	m := doc.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		if m[i].Value == "title" && m[i+1].Kind == yaml.ScalarNode {
			return m[i+1].Value
		}
	}
	return ""
}

// bracketDepth is a cheap upper bound of flow nesting, checked before a
// recursive parser sees the text.
func bracketDepth(src string) int {
	depth, most := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return most
}

// extractTOML writes keys and string values in key order.
func extractTOML(s *source, d *Document) error {
	src, ok := textOf(s, structMaxBytes+1)
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	if len(src) > structMaxBytes || bracketDepth(src) > maxNesting {
		return plainFallback(s, d, src)
	}
	var v map[string]any
	if err := protect(func() error { _, err := toml.Decode(src, &v); return err }); err != nil {
		return plainFallback(s, d, src)
	}
	if t, ok := v["title"].(string); ok {
		d.Title = t
	}
	tomlText(s, v, 0)
	return nil
}

func tomlText(s *source, v any, depth int) {
	if depth > maxNesting || s.text.full() {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s.text.nl()
			s.text.WriteString(k)
			s.text.WriteString(": ")
			tomlText(s, x[k], depth+1)
		}
	case []map[string]any:
		for _, m := range x {
			tomlText(s, m, depth+1)
		}
	case []any:
		for _, e := range x {
			tomlText(s, e, depth+1)
		}
	case string:
		s.text.WriteString(x)
		s.text.WriteString("\n")
	}
}

// extractXML writes the character data, one line per element, and takes
// the first <title> as the title (SVG, RSS, Atom, DocBook, ...). It uses
// encoding/xml rather than the office scanner: any XML may arrive here, and
// text that is not XML must fall back to plain text.
func extractXML(s *source, d *Document) error {
	src, ok := textOf(s, markupBudget(s))
	if !ok {
		binaryDoc(s, d)
		return nil
	}
	title, err := xmlText(s, src)
	d.Title = title
	var w warning
	if err != nil && !errors.As(err, &w) && s.ctx.Err() == nil {
		d.Title = ""
		return plainFallback(s, d, src)
	}
	return err
}

func xmlText(s *source, src string) (string, error) {
	dec := xml.NewDecoder(strings.NewReader(src))
	dec.Strict = false
	dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil } // already UTF-8
	dec.Entity = xml.HTMLEntity
	var title strings.Builder
	inTitle, titleDone := false, false
	depth := 0
	tk := tick{ctx: s.ctx}
	for !s.text.full() {
		if err := tk.err(); err != nil {
			return title.String(), err
		}
		tok, err := dec.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return title.String(), err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxNesting {
				return title.String(), warnf("XML nested deeper than %d levels: the rest is not indexed", maxNesting)
			}
			inTitle = !titleDone && t.Name.Local == "title"
		case xml.EndElement:
			depth--
			if inTitle {
				inTitle, titleDone = false, true
			}
			s.text.nl()
		case xml.CharData:
			if inTitle {
				title.Write(t)
			}
			writeCollapsed(s.text, t)
		}
	}
	return title.String(), nil
}

// writeCollapsed writes text with each run of white space made one space,
// and none at the start of a line.
func writeCollapsed(out *sink, b []byte) {
	for len(b) > 0 {
		i := 0
		for i < len(b) && !isSpace(b[i]) {
			i++
		}
		out.Write(b[:i])
		if i == len(b) {
			return
		}
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		out.sp()
		b = b[i:]
	}
}
