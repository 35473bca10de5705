package search

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// Unit tests of the engine on fakes of the store's parts it reads: paging
// over files listed without words, previews, and the speller's word list.
// The other tests run the same code on a real index.

// fakeIndex holds files by id. Evidence is left nil: a search with words
// needs the real index (see index_test.go), and using it here would panic.
type fakeIndex struct {
	Evidence
	files   map[int64]core.File
	texts   map[int64]string
	pages   map[int64]core.Pages
	gone    map[int64]bool // listed, then deleted before the page is read
	filters []store.FileFilter

	mu      sync.Mutex
	docs    int
	changes int64
	vocab   map[string]int // term -> files
	reads   int            // Vocabulary calls
	block   chan struct{}  // when set, Vocabulary waits for it
}

var _ Index = (*fakeIndex)(nil)

func (f *fakeIndex) key(fl core.File) store.FileKey {
	return store.FileKey{ID: fl.ID, Path: fl.Path, Extension: fl.Extension, Filename: fl.Filename, Size: fl.Size,
		Modified: fl.Modified.UnixNano(), Hash: fl.ContentHash}
}

func (f *fakeIndex) sorted() []core.File {
	var out []core.File
	for _, fl := range f.files {
		out = append(out, fl)
	}
	// Newest first, ties by id, as the store orders them.
	slices.SortFunc(out, func(a, b core.File) int { return cmp.Or(b.Modified.Compare(a.Modified), cmp.Compare(a.ID, b.ID)) })
	return out
}

func (f *fakeIndex) Browse(_ context.Context, filter store.FileFilter, limit int, keep func(core.File) bool) ([]core.File, error) {
	f.filters = append(f.filters, filter)
	var out []core.File
	for _, fl := range f.sorted() {
		if len(out) < limit && keep(fl) {
			out = append(out, fl)
		}
	}
	return out, nil
}

func (f *fakeIndex) BrowseKeys(_ context.Context, filter store.FileFilter, limit int) ([]store.FileKey, bool, error) {
	f.filters = append(f.filters, filter)
	var out []store.FileKey
	for _, fl := range f.sorted() {
		out = append(out, f.key(fl))
	}
	return out[:min(limit, len(out))], len(out) > limit, nil
}

func (f *fakeIndex) IndexedFiles(_ context.Context, ids []int64) (map[int64]core.File, error) {
	out := map[int64]core.File{}
	for _, id := range ids {
		if fl, ok := f.files[id]; ok && !f.gone[id] {
			out[id] = fl
		}
	}
	return out, nil
}

func (f *fakeIndex) File(_ context.Context, id int64) (core.File, error) {
	fl, ok := f.files[id]
	if !ok {
		return fl, &core.Missing{Thing: core.ThingFile, ID: id}
	}
	return fl, nil
}

func (f *fakeIndex) FileText(_ context.Context, id int64, maxBytes int) (store.WholeText, error) {
	t := f.texts[id]
	return store.WholeText{Text: t[:min(len(t), maxBytes)], Pages: f.pages[id], Cut: len(t) > maxBytes}, nil
}

func (f *fakeIndex) Languages() []string { return nil }

func (f *fakeIndex) DocCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.docs
}

func (f *fakeIndex) Changes() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changes
}

func (f *fakeIndex) Vocabulary(ctx context.Context, cards bool, minFiles int, fn func(string, int)) error {
	f.mu.Lock()
	f.reads++
	block, vocab := f.block, f.vocab
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for term, n := range vocab {
		if n >= minFiles {
			fn(term, n)
		}
	}
	return nil
}

// Not read by what these tests run.
func (f *fakeIndex) MatchingKeys(context.Context, store.Matches, store.FileFilter, int) ([]store.FileKey, bool, error) {
	panic("MatchingKeys: a search with words")
}
func (f *fakeIndex) KeysOf(context.Context, []int64, store.FileFilter) (map[int64]store.FileKey, error) {
	panic("KeysOf: a search with words")
}
func (f *fakeIndex) ExcludedAmong(context.Context, store.Expr, []int64) (map[int64]bool, error) {
	panic("ExcludedAmong: a search with words")
}
func (f *fakeIndex) Allowed(context.Context, []int64, store.FileFilter) (map[int64]bool, error) {
	panic("Allowed: a search with words")
}
func (f *fakeIndex) Passages(context.Context, []store.PassageKey) (map[store.PassageKey]store.Passage, error) {
	panic("Passages: a search with words")
}
func (f *fakeIndex) BestPassages(context.Context, []int64, []string, int) (map[int64]store.Passage, error) {
	panic("BestPassages: a search with words")
}

func fakeEngine(files ...core.File) (*Engine, *fakeIndex) {
	fake := &fakeIndex{files: map[int64]core.File{}, texts: map[int64]string{}, gone: map[int64]bool{}}
	for _, fl := range files {
		fake.files[fl.ID] = fl
	}
	return &Engine{Store: fake, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, fake
}

func fakeFile(id int64, p string, minute int, size int64, hash string) core.File {
	return core.File{ID: id, Path: p, Filename: path.Base(p), Extension: path.Ext(p), Size: size, ContentHash: hash,
		Modified: time.Date(2025, 3, 1, 9, minute, 0, 0, time.UTC), State: core.StateIndexed}
}

func names(p Page) []string {
	var out []string
	for _, r := range p.Results {
		s := strings.TrimPrefix(r.File.Path, "/w/")
		for _, c := range r.Copies {
			s += "+" + strings.TrimPrefix(c.Path, "/w/")
		}
		out = append(out, s)
	}
	return out
}

// Without words, a page lists the files the filters let in: ordered by the
// key asked for (ties by path), copies of one content grouped under the
// first (empty files never), the path glob applied in Go after the looser
// pattern SQLite was given, kinds counted before the type filter, and a
// file deleted between listing and reading left out.
func TestBrowsePagesOrderGroupAndCount(t *testing.T) {
	e, fake := fakeEngine(
		fakeFile(1, "/w/docs/b.txt", 3, 10, "h1"),
		fakeFile(2, "/w/docs/a.pdf", 5, 30, "h2"),
		fakeFile(3, "/w/docs/old/b.txt", 1, 10, "h1"),
		fakeFile(4, "/w/docs/c.md", 4, 20, ""),
		fakeFile(5, "/w/other/d.txt", 9, 5, "h5"),
		fakeFile(6, "/w/docs/e.txt", 2, 0, "h0"),
		fakeFile(7, "/w/docs/f.txt", 2, 0, "h0"),
	)
	ctx := t.Context()
	req := Request{Filters: Filters{PathGlob: "/w/docs/**"}, Limit: 10}
	for _, tc := range []struct {
		sort   SortKey
		asc    bool
		offset int
		limit  int
		kinds  []string
		want   []string
	}{
		{"", false, 0, 10, nil, []string{"docs/a.pdf", "docs/c.md", "docs/b.txt+docs/old/b.txt", "docs/e.txt", "docs/f.txt"}},
		{ByModified, true, 0, 10, nil, []string{"docs/old/b.txt+docs/b.txt", "docs/e.txt", "docs/f.txt", "docs/c.md", "docs/a.pdf"}},
		{ByName, true, 1, 2, nil, []string{"docs/b.txt+docs/old/b.txt", "docs/c.md"}},
		{BySize, false, 0, 3, nil, []string{"docs/a.pdf", "docs/c.md", "docs/b.txt+docs/old/b.txt"}},
		{"", false, 0, 10, []string{"pdf"}, []string{"docs/a.pdf"}},
		{"", false, 4, 10, nil, []string{"docs/f.txt"}},
	} {
		r := req
		r.Limit = tc.limit
		p, err := e.SearchPage(ctx, PageRequest{Request: r, Sort: tc.sort, Asc: tc.asc, Offset: tc.offset, Kinds: tc.kinds})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(p); !slices.Equal(got, tc.want) {
			t.Errorf("%s asc=%v offset %d limit %d kinds %v: %v, want %v", tc.sort, tc.asc, tc.offset, tc.limit, tc.kinds, got, tc.want)
		}
		total, groups := 6, 5
		if tc.kinds != nil {
			total, groups = 1, 1
		}
		if p.Total != total || p.Groups != groups || p.Estimated {
			t.Errorf("kinds %v: total %d, groups %d, estimated %v; want %d, %d", tc.kinds, p.Total, p.Groups, p.Estimated, total, groups)
		}
		want := []ExtCount{{"documents", ".txt", 4}, {"documents", ".md", 1}, {"pdf", ".pdf", 1}}
		if !slices.Equal(p.Facets, want) {
			t.Errorf("facets %v, want %v", p.Facets, want)
		}
	}
	for _, f := range fake.filters {
		if f.PathLike != "/w/docs/**" || len(f.Exts) != 0 {
			t.Fatalf("the index was asked for %+v; want the loose path pattern and no extensions", f)
		}
	}

	fake.gone[4] = true
	p, err := e.SearchPage(ctx, PageRequest{Request: req, Sort: ByName, Asc: true})
	if err != nil || slices.Contains(names(p), "docs/c.md") || len(p.Results) != 4 {
		t.Fatalf("a file deleted meanwhile: %v %v", names(p), err)
	}

	rs, err := e.Search(ctx, Request{Filters: Filters{PathGlob: "*.txt"}, Limit: 3})
	var got []string
	for _, r := range rs {
		got = append(got, strings.TrimPrefix(r.File.Path, "/w/"))
	}
	if err != nil || !slices.Equal(got, []string{"other/d.txt", "docs/b.txt", "docs/e.txt"}) {
		t.Fatalf("browse by date with a glob: %v %v", got, err)
	}
}

// A preview marks the query's words in the stored text, says when the text
// was cut, and exists for indexed files only.
func TestPreviewMarksStoredText(t *testing.T) {
	failed := fakeFile(2, "/w/broken.pdf", 1, 1, "")
	failed.State = core.StateFailed
	e, fake := fakeEngine(fakeFile(1, "/w/notes.txt", 1, 1, ""), failed)
	fake.texts[1] = "The roof leaks; roofing leaked."
	p, err := e.Preview(t.Context(), 1, "roof leak")
	if err != nil {
		t.Fatal(err)
	}
	var marked []string
	for _, part := range p.Parts {
		if part.Mark {
			marked = append(marked, part.Text)
		}
	}
	if !slices.Equal(marked, []string{"roof", "leaks", "roofing", "leaked"}) || p.Matches != 4 || p.Truncated {
		t.Fatalf("marked %v (%d), truncated %v", marked, p.Matches, p.Truncated)
	}
	fake.texts[1] = strings.Repeat("x", PreviewText+1)
	if p, err := e.Preview(t.Context(), 1, "x"); err != nil || !p.Truncated {
		t.Fatalf("a long text: truncated %v, %v", p.Truncated, err)
	}
	if _, err := e.Preview(t.Context(), 2, "roof"); !errors.Is(err, core.NotIndexed) {
		t.Fatalf("a failed file: %v", err)
	}
	if _, err := e.Preview(t.Context(), 9, "roof"); err == nil {
		t.Fatal("an unknown file has a preview")
	}
}

// The speller reads the word list once, in the background; a query that
// needs it first waits for it; it is read again only once a quarter of the
// index (and a hundred files) has changed.
func TestSpellerReadsTheWordListAgainOnlyWhenStale(t *testing.T) {
	_, fake := fakeEngine()
	fake.docs, fake.vocab = 1000, map[string]int{"roof": 3, "leak": 1}
	fake.block = make(chan struct{})
	var sp speller
	logged := func(err error) { t.Errorf("word list: %v", err) }

	loading := sp.refresh(fake, logged)
	if again := sp.refresh(fake, logged); again != loading {
		t.Fatal("a second refresh started a second read")
	}
	close(fake.block)
	known := sp.known(t.Context(), fake, logged, []string{"roof", "leak", "tide"})
	// Text words count from two files (leak is in one), cards from one:
	// the fake lists the same words for both.
	if known["roof"] != 3 || known["leak"] != 1 || len(known) != 2 {
		t.Fatalf("known %v", known)
	}
	if fake.reads != 2 {
		t.Fatalf("%d vocabulary reads, want 2 (text and cards)", fake.reads)
	}

	fake.mu.Lock()
	fake.changes = 1000/4 + 100 // not more than the limit
	fake.mu.Unlock()
	if ch := sp.refresh(fake, logged); ch != nil {
		t.Fatal("read again before a quarter of the index changed")
	}
	fake.mu.Lock()
	fake.changes++
	fake.mu.Unlock()
	ch := sp.refresh(fake, logged)
	if ch == nil {
		t.Fatal("not read again after a quarter of the index changed")
	}
	<-ch
	if fake.reads != 4 {
		t.Fatalf("%d vocabulary reads, want 4", fake.reads)
	}
}

// A path filter that is not a glob is a domain error naming the pattern,
// with or without words in the query; views word it for the request.
func TestBadPathGlobIsADomainError(t *testing.T) {
	e, _ := fakeEngine()
	for _, q := range []string{"", "roof"} {
		_, err := e.SearchPage(t.Context(), PageRequest{Request: Request{Query: q, Filters: Filters{PathGlob: "a/[b"}, Limit: 5}})
		var bad *core.BadGlob
		if !errors.As(err, &bad) || bad.Glob != "a/[b" || !errors.Is(err, core.ErrInvalid) || core.FieldOf(err) != "" {
			t.Fatalf("query %q: %#v", q, err)
		}
	}
}

// A split keeps every id once, in order, in runs of about the same length;
// only the text's walk over many files is split.
func TestSplitWalks(t *testing.T) {
	ids := []int64{2, 3, 5, 7, 11, 13, 17}
	for n := 1; n <= 3; n++ {
		parts := split(ids, n)
		var all []int64
		for _, p := range parts {
			if len(p) < len(ids)/n || len(p) > len(ids)/n+1 {
				t.Errorf("%d parts: %v", n, parts)
			}
			all = append(all, p...)
		}
		if len(parts) != n || !slices.Equal(all, ids) {
			t.Errorf("%d parts: %v", n, parts)
		}
	}
	if walkPieces(fileTable, 500) != 1 || walkPieces(textTable, 10) != 1 {
		t.Error("a short walk, or one of names, is split")
	}
	if runtime.GOMAXPROCS(0) > 1 && walkPieces(textTable, 500) != 2 {
		t.Error("the text's walk over 500 files is not split on two cores")
	}
}

// best keeps exactly what a full sort puts first, in its order, whatever
// the ties.
func TestBestIsTheSortedHead(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n := r.IntN(400)
		rs := make([]Scored, n)
		for i := range rs {
			rs[i] = Scored{C: &Candidate{ID: int64(r.IntN(1000))}, Score: float64(r.IntN(20)) / 4}
		}
		sorted := slices.Clone(rs)
		slices.SortFunc(sorted, byScore)
		k := r.IntN(n + 2)
		got := best(slices.Clone(rs), k)
		want := sorted[:min(k, n)]
		if len(got) != len(want) {
			t.Fatalf("n %d k %d: %d kept, want %d", n, k, len(got), len(want))
		}
		for i := range want {
			if got[i].C.ID != want[i].C.ID || got[i].Score != want[i].Score {
				t.Fatalf("n %d k %d: at %d got %v/%v, want %v/%v", n, k, i, got[i].C.ID, got[i].Score, want[i].C.ID, want[i].Score)
			}
		}
	}
}

// In a hybrid search the shortlist's places go by the query's words: the
// files found by meaning join it anyway, and ranked with their meaning
// they pushed out files holding more of the words. A file found by meaning
// joins when it is close enough to rank on its meaning or holds a word.
func TestShortlistPlacesGoByWords(t *testing.T) {
	q := Query{Mode: Hybrid, Terms: []Term{{Text: "tide", Weight: 1, IDF: 3}}}
	col := Collection{AvgLen: [numFields]float64{FieldText: 100}}
	cands := map[int64]*Candidate{}
	add := func(id int64, tf int32, similarity float64) {
		cands[id] = &Candidate{ID: id, TF: [][numFields]int32{{FieldText: tf}}, Len: [numFields]int32{FieldText: 100},
			Similarity: similarity, HasVector: similarity > 0}
	}
	for id := range int64(shortlisted - 50) {
		add(id+1, 3, 0)
	}
	const sought = 5000 // the next best by its words
	add(sought, 2, 0)
	for id := range int64(semanticCandidates) {
		add(10000+id, 1, 0.9) // close in meaning, fewer of the words
	}
	for id := range int64(100) {
		add(1000+id, 1, 0) // neither; first of the ties by id
	}
	for id := range int64(5) {
		add(30000+id, 0, 0.9)                             // close enough in meaning to stand alone
		add(40000+id, 0, DefaultTuning.SemanticOnlyMin/2) // neither close nor holding a word
	}
	if ranked := fuseBest(q, slices.Collect(maps.Values(cands)), col, DefaultTuning, shortlisted); slices.ContainsFunc(ranked, func(r Scored) bool { return r.C.ID == sought }) {
		t.Fatal("the files found by meaning do not outrank the file sought: the test shows nothing")
	}
	list := shortlist(q, cands, nil, col, DefaultTuning)
	if !slices.Contains(list, sought) {
		t.Error("a file among the best by its words is not shortlisted")
	}
	for id := range int64(semanticCandidates) {
		if !slices.Contains(list, 10000+id) {
			t.Fatalf("file %d found by meaning is not shortlisted", 10000+id)
		}
	}
	for id := range int64(5) {
		if !slices.Contains(list, 30000+id) || slices.Contains(list, 40000+id) {
			t.Fatalf("a file close in meaning is left out, or one neither close nor holding a word is shortlisted: %v", list[len(list)-10:])
		}
	}
	if want := shortlisted + semanticCandidates + 5; len(list) != want || !slices.IsSorted(list) {
		t.Errorf("%d files shortlisted (sorted %v), want %d: the best %d by words and the rest found by meaning",
			len(list), slices.IsSorted(list), want, shortlisted)
	}
}

// recordingIndex counts how the evidence of shortlisted files is
// completed: walks restricted to them, or lengths read alone.
type recordingIndex struct {
	Index
	mu      sync.Mutex
	walks   map[store.TermTable]int
	lengths map[store.TermTable]int
}

func (r *recordingIndex) TermMatches(ctx context.Context, t store.TermTable, expr store.Expr, scope store.TermScope) ([]store.TermMatch, store.TableStats, error) {
	if scope.Only != nil {
		r.mu.Lock()
		r.walks[t]++
		r.mu.Unlock()
	}
	return r.Index.TermMatches(ctx, t, expr, scope)
}

func (r *recordingIndex) Lengths(ctx context.Context, t store.TermTable, ids []int64) (map[int64][]int32, error) {
	r.mu.Lock()
	r.lengths[t]++
	r.mu.Unlock()
	return r.Index.Lengths(ctx, t, ids)
}

// A table phase one walked in full is not walked again: its files'
// lengths are read instead, but for the text of a query of two words or
// more, whose proximity needs their positions.
func TestWholeTablesAreNotWalkedAgain(t *testing.T) {
	for _, c := range []struct {
		query                   string
		ext                     string
		textWalked, filesWalked bool
	}{
		{"roof", "", false, false},
		{`"roof leaks"`, "", false, false},
		{"bread*", "", false, false},
		{"roof leaking", "", true, false},
		{"roof", "md", true, true}, // files found by meaning pass no filter in phase one
	} {
		e := engineFor(t)
		r := &recordingIndex{Index: e.Store, walks: map[store.TermTable]int{}, lengths: map[store.TermTable]int{}}
		e.Store = r
		req := Request{Query: c.query, Mode: Keyword}
		if c.ext != "" {
			req.Filters.Extensions = []string{c.ext}
		}
		if rs := search(t, e, req); len(rs) == 0 {
			t.Fatalf("%q: no results", c.query)
		}
		for table, walked := range map[store.TermTable]bool{store.ContentTable: c.textWalked, store.FileTable: c.filesWalked} {
			if got := r.walks[table] > 0; got != walked || r.lengths[table] > 0 == walked {
				t.Errorf("%q, table %v: %d walks and %d length reads, want walked %v", c.query, table, r.walks[table], r.lengths[table], walked)
			}
		}
	}
}

// A query of a few words normalises the text's length harder; a longer one
// keeps the text's b, and so does every other field.
func TestShortQueryTextB(t *testing.T) {
	d := DefaultTuning
	for _, c := range []struct {
		query       string
		b, presence float64
	}{
		{"zebra budget plan", d.ShortTextB, d.ShortPresence},
		{"the zebra of a budget plan for the year", d.ShortTextB, d.ShortPresence}, // stopwords aside: four words
		{"zebra budget plan annual report", d.Fields[FieldText].B, d.Presence},
		{"the", d.Fields[FieldText].B, d.Presence}, // nothing but stopwords
	} {
		p := newPlanText(c.query)
		got := d.forWords(p.wordCount())
		if got.Fields[FieldText].B != c.b || got.Fields[FieldName] != d.Fields[FieldName] {
			t.Errorf("%q: text b %.2f, want %.2f", c.query, got.Fields[FieldText].B, c.b)
		}
		if got.Presence != c.presence {
			t.Errorf("%q: presence %.2f, want %.2f", c.query, got.Presence, c.presence)
		}
	}
	if d.ShortTextB == d.Fields[FieldText].B || d.ShortPresence == d.Presence {
		t.Fatal("the short-query knobs are the others: the test shows nothing")
	}
}

// For a few typed words, a file holding each of them once outranks one
// that says one of them often and holds the other once; a long question
// keeps plain BM25F, which ranks them the other way.
func TestShortQueryFavoursHoldingEachWord(t *testing.T) {
	q := Query{Mode: Keyword, Terms: []Term{{Text: "alpha", Weight: 1, IDF: 5}, {Text: "beta", Weight: 1, IDF: 3}}}
	col := Collection{AvgLen: [numFields]float64{FieldText: 100}}
	// each: alpha once, beta once; often: alpha 30 times, beta none.
	each := &Candidate{ID: 1, TF: [][numFields]int32{{FieldText: 1}, {FieldText: 1}}, Len: [numFields]int32{FieldText: 100}}
	often := &Candidate{ID: 2, TF: [][numFields]int32{{FieldText: 30}, {}}, Len: [numFields]int32{FieldText: 100}}
	first := func(tu Tuning) int64 { return Fuse(q, []*Candidate{often, each}, col, tu)[0].C.ID }
	if got := first(DefaultTuning.forWords(2)); got != each.ID {
		t.Errorf("two typed words: file %d first, want the one holding each word", got)
	}
	if got := first(DefaultTuning.forWords(DefaultTuning.ShortWords + 1)); got != often.ID {
		t.Errorf("a longer query: file %d first, want plain BM25F's", got)
	}
}

// A compressed file is of the kind of the file inside; a compressed tar is
// an archive.
func TestKindOfCompressedFiles(t *testing.T) {
	for name, want := range map[string]string{
		"changelog.gz": "documents", "README.Debian.gz": "documents", "notes.md.bz2": "documents", "syslog.2.gz": "documents",
		"dump.sql.xz": "code", "photo.jpg.gz": "images", "logs.tar.gz": "archives", "logs.tgz": "archives", "x.tar.zst": "archives",
		"report.pdf": "pdf", "Makefile": KindNone, ".bashrc": KindNone, "data.bin": KindOther,
	} {
		if got := KindOfName(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}
