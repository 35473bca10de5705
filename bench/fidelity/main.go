// Command fidelity measures how much of each document's text Trove's
// extractors give, against the text the document was made from or, for
// documents made elsewhere, against poppler's pdftotext:
//
//	go run ./bench/fidelity [-dir DIR] [-small]
//
// It makes a corpus with the Debian programs at hand (LibreOffice,
// Chromium, groff, Ghostscript, cairo, qpdf, and the PDFs shipped under
// /usr/share/doc), reads every document with Trove and with pdftotext in
// the same run, and prints word recall, precision, reading order (the
// share of the reference's adjacent word pairs found) and pages per
// second per producer and format. The full corpus also has Word, Excel
// and PowerPoint 97-2003 files, measured against their source text and
// against Debian's readers of these formats (antiword, catdoc, xls2csv,
// catppt) and LibreOffice's own text export.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"text/tabwriter"
	"time"

	"trove/backend/engine/extract"
)

func main() {
	dir := flag.String("dir", "", "make the corpus here and keep it (default: a temporary folder)")
	small := flag.Bool("small", false, "the small corpus of the test")
	flag.Parse()
	ctx := context.Background()
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "fidelity")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer os.RemoveAll(tmp)
		*dir = tmp
	}
	c, err := buildCorpus(ctx, *dir, !*small)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rows, err := measure(ctx, c.docs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	printTable(os.Stdout, rows)
	for _, s := range c.skipped {
		fmt.Println("skipped:", s)
	}
}

// result is one document's reading by Trove and by pdftotext.
type result struct {
	doc
	trove, poppler score
	troveTime      time.Duration
	popplerTime    time.Duration
	pages          int
	warning        string
}

func measure(ctx context.Context, docs []doc) ([]result, error) {
	out := make([]result, 0, len(docs))
	for _, d := range docs {
		r := result{doc: d}
		start := time.Now()
		got, err := extract.Extract(ctx, d.path, extract.Options{})
		r.troveTime = time.Since(start)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		r.trove = compare(d.ref, got.Text)
		r.warning = got.Warning
		r.pages, _ = strconv.Atoi(got.Meta["pages"])
		switch {
		case d.source != "":
			// The reference program's own reading, against the source.
			r.poppler = compare(d.source, d.ref)
		case d.format == "pdf":
			start = time.Now()
			text, err := pdftotext(ctx, d.path, "-raw")
			r.popplerTime = time.Since(start)
			if err == nil {
				r.poppler = compare(d.ref, text)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// group sums the results of one producer and format.
type group struct {
	producer, format string
	docs, pages      int
	trove, poppler   score
	troveTime        time.Duration
	popplerTime      time.Duration
	refKind          string
	tool             bool // the reference is a program's reading: its own score is against the source
}

func groups(rows []result) []*group {
	by := map[string]*group{}
	var keys []string
	for _, r := range rows {
		k := r.producer + "\x00" + r.format
		if r.source != "" {
			k += "\x00" + r.refKind // one row per reference program
		}
		g := by[k]
		if g == nil {
			g = &group{producer: r.producer, format: r.format, refKind: r.refKind, tool: r.source != ""}
			by[k] = g
			keys = append(keys, k)
		}
		if g.refKind != r.refKind {
			g.refKind = "mixed"
		}
		g.docs++
		g.pages += r.pages
		g.trove.add(r.trove)
		g.poppler.add(r.poppler)
		g.troveTime += r.troveTime
		g.popplerTime += r.popplerTime
	}
	sort.Strings(keys)
	out := make([]*group, len(keys))
	for i, k := range keys {
		out[i] = by[k]
	}
	return out
}

func printTable(w io.Writer, rows []result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(tw, "producer\tformat\tdocs\tpages\treference\tTrove recall\tprecision\torder\tpages/s\ttool recall\tprecision\torder\tpages/s\t")
	for _, g := range groups(rows) {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%.3f\t%.3f\t%.3f\t%s\t", g.producer, g.format, g.docs, g.pages, g.refKind,
			g.trove.recall(), g.trove.precision(), g.trove.order(), rate(g.pages, g.troveTime))
		switch {
		case g.tool:
			fmt.Fprintf(tw, "%.3f\t%.3f\t%.3f\t-\t\n", g.poppler.recall(), g.poppler.precision(), g.poppler.order())
		case g.format != "pdf":
			fmt.Fprintln(tw, "-\t-\t-\t-\t")
		case g.refKind == "pdftotext":
			fmt.Fprintf(tw, "(ref)\t(ref)\t(ref)\t%s\t\n", rate(g.pages, g.popplerTime))
		default:
			fmt.Fprintf(tw, "%.3f\t%.3f\t%.3f\t%s\t\n", g.poppler.recall(), g.poppler.precision(), g.poppler.order(), rate(g.pages, g.popplerTime))
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "tool: pdftotext for PDFs; where the reference is a program, that program against the source text")
	for _, r := range rows {
		if r.trove.recall() < 0.97 || r.warning != "" {
			fmt.Fprintf(w, "  %s: recall %.3f precision %.3f order %.3f %s\n", r.path, r.trove.recall(), r.trove.precision(), r.trove.order(), r.warning)
		}
	}
}

func rate(pages int, d time.Duration) string {
	if pages == 0 || d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(pages)/d.Seconds())
}
