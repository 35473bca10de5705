package search

import (
	"context"

	"trove/backend/core"
	"trove/backend/engine/text/query"
)

// PreviewText is the most text a preview shows.
const PreviewText = 1 << 20

// Part is a stretch of a preview's text, marked when it matches the
// query. A part lies on one page of the file.
type Part struct {
	Text string
	Mark bool
	Page int // 0: not known (no pages)
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
	body, err := e.Store.FileText(ctx, id, PreviewText)
	if err != nil {
		return Preview{}, err
	}
	out := Preview{File: f, Truncated: body.Cut}
	var p plan
	if q := query.Parse(text); len(q.Errors) == 0 {
		p = newPlan(q)
	}
	out.Parts, out.Matches = markAll(body.Text, body.Pages, markerFor(p, e.Store.Languages()).remembering())
	return out, nil
}

// markAll cuts text into parts, marking every word that matches, and
// cutting the others where a page starts, so that each part is of one
// page.
func markAll(text string, pages core.Pages, m *marker) ([]Part, int) {
	var parts []Part
	next := 0 // the first page that starts after what parts hold
	plain := func(from, to int) {
		for ; next < len(pages) && pages[next].At < to; next++ {
			if at := pages[next].At; at > from {
				parts = append(parts, Part{Text: text[from:at], Page: pages.At(from)})
				from = at
			}
		}
		if from < to {
			parts = append(parts, Part{Text: text[from:to], Page: pages.At(from)})
		}
	}
	last, n := 0, 0
	for start, end := nextWord(text, 0); start < len(text); start, end = nextWord(text, end) {
		m.hits(text, start, end, func(h span) {
			plain(last, h.start)
			parts = append(parts, Part{Text: text[h.start:h.end], Mark: true, Page: pages.At(h.start)})
			last, n = h.end, n+1
		})
	}
	plain(last, len(text))
	return parts, n
}
