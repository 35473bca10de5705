package enrich

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"trove/backend/engine/text/markdown"
)

// BuiltinName identifies the builtin method. Change it whenever the
// algorithm changes, so that indexed files get new cards.
const BuiltinName = "builtin-v1"

// Builtin writes cards offline and fast: the document's title (or a
// heading, or a cleaned file name), a TextRank extractive summary and
// TF-IDF keywords scored against the index's document frequencies.
type Builtin struct {
	stats Stats // may be nil: a static English prior is used instead
}

// NewBuiltin returns the builtin enricher. stats may be nil.
func NewBuiltin(stats Stats) *Builtin { return &Builtin{stats: stats} }

// Name implements Enricher.
func (*Builtin) Name() string { return BuiltinName }

var analyzers = sync.Pool{New: func() any { return newAnalyzer() }}

// Enrich implements Enricher. It fails only when ctx is done.
func (b *Builtin) Enrich(ctx context.Context, in Input) (Card, error) {
	if err := ctx.Err(); err != nil {
		return Card{}, err
	}
	a := analyzers.Get().(*analyzer)
	defer analyzers.Put(a)
	card, err := a.card(ctx, b.stats, in)
	if err != nil {
		return Card{}, err
	}
	card.By = BuiltinName
	return card, nil
}

// card does the work of Enrich with a pooled analyzer.
func (a *analyzer) card(ctx context.Context, stats Stats, in Input) (Card, error) {
	filename := in.Filename
	if filename == "" {
		filename = filepath.Base(in.Path)
		if filename == "." || filename == string(filepath.Separator) {
			filename = ""
		}
	}
	fileTitle := titleFromFilename(filename)
	if fileTitle == "" {
		fileTitle = "Untitled"
	}
	docTitle := ""
	if meaningfulTitle(in.Title, filename) {
		docTitle = cleanTitle(in.Title)
	}

	text := sample(in.Text)
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	if strings.TrimSpace(text) == "" {
		t := docTitle
		if t == "" {
			t = fileTitle
		}
		return Card{Title: t}, nil
	}

	lang, isCode := sourceLanguage(filename, in.Mime)
	var format string
	var isData bool
	if !isCode {
		format, isData = dataFormat(filename, in.Mime)
	}
	var delim byte
	if !isCode && !isData {
		delim = tableDelimiter(filename, in.Mime, text)
	}
	a.reset(isCode || isData) // identifiers: split camelCase, skip language words

	var title, summary string
	var code codeInfo
	var table tableInfo
	switch {
	case isCode:
		code = analyzeCode(text, lang)
		title = docTitle
		if title == "" {
			title = fileTitle
		}
		a.scan(title, true, false)
		a.scan(code.doc, true, false) // the documentation says what matters
		a.scan(code.text, false, false)
	case isData:
		title = docTitle
		if title == "" {
			title = fileTitle
		}
		a.scan(title, true, false)
		a.scan(text, false, false)
	case delim != 0:
		table = analyzeTable(in.Text, text, delim)
		title = docTitle
		if title == "" {
			title = fileTitle
		}
		a.scan(title, true, false)
		for _, h := range table.header {
			a.scan(h, true, false)
		}
		a.scanTable(text, delim, table.header != nil)
	default:
		a.seg.run(text)
		title = docTitle
		if title == "" {
			title = a.chooseTitle(fileTitle)
		}
		a.scan(title, true, false)
		for i := range a.seg.units {
			u := &a.seg.units[i]
			if u.kind == kHeading && u.text == title {
				continue // already counted as the title
			}
			a.scan(u.text, u.kind == kHeading, u.kind == kSentence)
			if u.kind == kSentence {
				a.addSentence(i)
			}
		}
	}
	a.finishWords()

	// One statistics query per file; without answers the prior stands.
	words := a.statsWords()
	if stats != nil && len(words) > 0 {
		docs, df, err := stats.DocFreqs(ctx, words)
		if cerr := ctx.Err(); cerr != nil {
			return Card{}, cerr
		}
		if err == nil {
			a.applyStats(docs, df)
		}
	}

	switch {
	case isCode:
		summary = codeSummary(code, lang)
	case isData:
		summary = dataSummary(text, format)
	case delim != 0:
		summary = tableSummary(table)
	default:
		summary = a.summarize()
		if summary == "" {
			summary = a.fallbackSummary(title)
		}
		if summary == "" {
			summary = shortTextSummary(text, title)
		}
	}
	return Card{
		Title:    safeText(title, maxTitleRunes),
		Summary:  safeText(summary, maxSummaryRunes),
		Keywords: a.keywords(),
	}, nil
}

// scanTable counts the words of a table's cells; the header row has been
// counted already.
func (a *analyzer) scanTable(text string, d byte, skipFirst bool) {
	first := true
	for len(text) > 0 {
		var l string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			l, text = text, ""
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		if first && skipFirst {
			first = false
			continue
		}
		first = false
		for _, f := range splitRow(l, d) {
			a.scan(f, false, false)
		}
	}
}

// chooseTitle picks a prose document's title: its leading heading, else a
// short first line that reads like a title, else an early heading, else
// the cleaned file name.
func (a *analyzer) chooseTitle(fileTitle string) string {
	s := &a.seg
	if s.firstHeading != "" && s.firstIsHead {
		if t := cleanTitle(s.firstHeading); t != "" {
			return t
		}
	}
	if looksLikeTitle(s.firstLine) {
		if t := cleanTitle(s.firstLine); t != "" {
			return t
		}
	}
	if s.firstHeading != "" {
		if t := cleanTitle(s.firstHeading); t != "" {
			return t
		}
	}
	return fileTitle
}

// looksLikeTitle accepts a short line that starts with a capital or a
// digit, does not end like a sentence and is not code, a table row, a
// list item, a label or a licence.
func looksLikeTitle(l string) bool {
	l = strings.TrimSpace(markdown.Inline(l))
	if l == "" || !hasLetter(l) {
		return false
	}
	n := utf8.RuneCountInString(l)
	if n < 3 || n > 100 || wordCount(l, 15) > 14 {
		return false
	}
	if strings.ContainsAny(l[len(l)-1:], ".,;") || strings.Contains(l, "://") || timestamped(l) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(l); unicode.IsLower(r) || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '"' || r == '“') {
		return false
	}
	if _, ok := listItem(l); ok {
		return false
	}
	if _, _, ok := metaLine(l); ok {
		return false
	}
	return !looksLikeTable(l) && !looksLikeCode(l, l) && !isBoilerplate(l)
}

// fallbackSummary is used for prose without a single full sentence: the
// first few lines that carry words (list items, labels' values), joined.
func (a *analyzer) fallbackSummary(title string) string {
	var b strings.Builder
	n := 0
	for i := range a.seg.units {
		u := &a.seg.units[i]
		if u.kind == kTable || u.text == title || wordCount(u.text, 3) < 3 {
			continue
		}
		t := u.text
		if !strings.ContainsAny(t[len(t)-1:], ".!?") {
			t = strings.TrimRight(t, ":;,") + "."
		}
		if b.Len() > 0 && utf8.RuneCountInString(b.String())+1+utf8.RuneCountInString(t) > maxSummaryRunes {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		if n++; n == maxSummarySents {
			break
		}
	}
	if b.Len() > 0 {
		return b.String()
	}
	// A bare list (groceries, a packing list): its items.
	var items []string
	for i := range a.seg.units {
		if u := &a.seg.units[i]; u.item && u.text != title {
			items = append(items, strings.TrimRight(u.text, ".,;:"))
		}
	}
	if len(items) < 2 {
		return ""
	}
	list := strings.Join(items, ", ")
	r, size := utf8.DecodeRuneInString(list)
	return truncateRunes(string(unicode.ToUpper(r))+list[size:]+".", maxSummaryRunes)
}

// shortTextSummary: a one-line note too short to hold a sentence ("call
// Dana back") is its own best summary. Longer texts without sentences (logs,
// tables) keep an empty summary.
func shortTextSummary(text, title string) string {
	if strings.Count(strings.TrimSpace(text), "\n") > 0 {
		return ""
	}
	t := cleanLine(text)
	if t == "" || t == title || utf8.RuneCountInString(t) > 200 {
		return ""
	}
	return t
}

// safeText guarantees valid, printable, single-spaced UTF-8 of at most max
// runes.
func safeText(s string, max int) string {
	return truncateRunes(cleanLine(s), max)
}
