package core

import (
	"slices"
	"strconv"
	"strings"
)

// PageStart says that a text's bytes from At on were read from page Page
// (counted from 1) of the file, up to the next PageStart.
type PageStart struct {
	At   int
	Page int
}

// Pages are where a text's pages start, in ascending order of At. The
// pages themselves need not ascend: text read by OCR follows the text
// layer of the other pages. nil: the text has no pages (not a paged
// format, or indexed before pages were kept).
type Pages []PageStart

// Add marks that the text from at on is of page page. A page that gave no
// text is replaced by the next one, which starts where it did.
func (p Pages) Add(at, page int) Pages {
	if n := len(p); n > 0 && p[n-1].At >= at {
		p = p[:n-1]
	}
	if n := len(p); n > 0 && p[n-1].Page == page {
		return p
	}
	return append(p, PageStart{At: at, Page: page})
}

// At is the page of the byte at off; 0 when it is not known (no pages, or
// off before the first).
func (p Pages) At(off int) int {
	i, found := slices.BinarySearchFunc(p, off, func(s PageStart, off int) int { return s.At - off })
	switch {
	case found:
		return p[i].Page
	case i == 0:
		return 0
	}
	return p[i-1].Page
}

// Slice is the pages of text[from:to], counted from from: the page from is
// on starts at 0. nil when p is.
func (p Pages) Slice(from, to int) Pages {
	if len(p) == 0 {
		return nil
	}
	var out Pages
	if first := p.At(from); first > 0 {
		out = append(out, PageStart{At: 0, Page: first})
	}
	for _, s := range p {
		if s.At > from && s.At < to {
			out = append(out, PageStart{At: s.At - from, Page: s.Page})
		}
	}
	return out
}

// String writes p as the index keeps it: "page@at" pairs separated by
// spaces, as "3@0 4@1210"; "" for none.
func (p Pages) String() string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(s.Page))
		b.WriteByte('@')
		b.WriteString(strconv.Itoa(s.At))
	}
	return b.String()
}

// ParsePages reads what String wrote. What it cannot read it leaves out:
// a page is a help to the reader, never a reason to fail.
func ParsePages(s string) Pages {
	var out Pages
	for _, f := range strings.Fields(s) {
		page, at, ok := strings.Cut(f, "@")
		n, err1 := strconv.Atoi(page)
		off, err2 := strconv.Atoi(at)
		if !ok || err1 != nil || err2 != nil || n < 1 || off < 0 || len(out) > 0 && off <= out[len(out)-1].At {
			continue
		}
		out = append(out, PageStart{At: off, Page: n})
	}
	return out
}
