package search

import (
	"context"

	"trove/backend/core"
	"trove/backend/engine/text/query"
)

// PreviewText is the most text a preview shows.
const PreviewText = 1 << 20

// Part is a stretch of a preview's text, marked when it matches the
// query.
type Part struct {
	Text string
	Mark bool
}

// Preview is an indexed file's text as the index holds it (for a PDF its
// pages' text), cut into parts with every word matching the query marked.
type Preview struct {
	File      core.File
	Parts     []Part
	Matches   int
	Truncated bool
}

// Preview returns the text of an indexed file with the query's words
// marked the way snippets mark them. Only indexed files have one.
func (e *Engine) Preview(ctx context.Context, id int64, text string) (Preview, error) {
	f, err := e.Store.File(ctx, id)
	if err != nil {
		return Preview{}, err
	}
	if f.State != core.StateIndexed {
		return Preview{}, core.Fail(core.NotIndexed, "file %d is not indexed", id)
	}
	body, cut, err := e.Store.FileText(ctx, id, PreviewText)
	if err != nil {
		return Preview{}, err
	}
	out := Preview{File: f, Truncated: cut}
	var p plan
	if q := query.Parse(text); len(q.Errors) == 0 {
		p = newPlan(q)
	}
	out.Parts, out.Matches = markAll(body, markerFor(p, e.Store.Languages()))
	return out, nil
}

// markAll cuts text into parts, marking every word that matches.
func markAll(text string, m *marker) ([]Part, int) {
	var parts []Part
	last, n := 0, 0
	for start, end := nextWord(text, 0); start < len(text); start, end = nextWord(text, end) {
		m.hits(text, start, end, func(h span) {
			if h.start > last {
				parts = append(parts, Part{Text: text[last:h.start]})
			}
			parts = append(parts, Part{Text: text[h.start:h.end], Mark: true})
			last, n = h.end, n+1
		})
	}
	if last < len(text) {
		parts = append(parts, Part{Text: text[last:]})
	}
	return parts, n
}
