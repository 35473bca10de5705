package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

// Term statistics for ranking in Go. FTS5's own bm25() fixes k1 and b,
// scores all columns with one document length and reads every posting
// list of a query to count documents; Trove's ranking needs per-field
// lengths (BM25F), its own term weights and exact scores for a chosen set
// of files. So the full-text tables only find matches, and an auxiliary
// function, termFreqsFunc, reports for each match what ranking needs: the
// length of every column and the frequency of every query phrase in each.

// termFreqsFunc is the name of the auxiliary function.
const termFreqsFunc = "trove_tf"

// registerFTS registers FTS5, Trove's auxiliary function and tokenizer,
// inFunc and detectFunc on a connection.
func registerFTS(c *sqlite3.Conn, langs *langSet) error {
	err := fts5.RegisterCustom(c, func(a *fts5.API) error {
		return errors.Join(a.CreateFunction(termFreqsFunc, termFreqs), createTokenizer(a, langs))
	})
	return errors.Join(err, registerIn(c), registerDetect(c))
}

// Bits of termFreqs' first argument.
const (
	// wantLengths asks for the row's column lengths.
	wantLengths = 1
	// byPhrase walks each phrase's instances on its own, for expressions
	// whose every match holds every phrase (AND). InstCount first merges
	// them into one array in position order, which cost half as much again
	// where common words occur hundreds of times in a file; where a row
	// lacks most phrases (OR), starting a walk of each costs more than the
	// merge saves.
	byPhrase = 2
	// heldLast, with byPhrase, counts the last phrase once in the first
	// column without reading its instances: every match holds it (AND),
	// and a word common enough to be held by most files occurs hundreds
	// of times in many, where the others occur a few times.
	heldLast = 4
)

// termFreqs returns, as uvarints: flags (1: totals follow, on the first
// match of a statement only; 2: lengths follow; 4: proximity follows), the
// table's row count and each column's total tokens, each column's tokens
// in this row (when its first argument has wantLengths), then for each
// phrase of the query its count in each column, then, when weights follow
// the first argument (one for each of the query's first phrases), the
// proximity of each of those phrases in the first column, as float32
// bits. A row's lengths cost a lookup in the table's docsize table, which
// candidate search does without.
func termFreqs(fts fts5.Context, ctx sqlite3.Context, args ...sqlite3.Value) {
	cols, phrases := fts.ColumnCount(), fts.PhraseCount()
	var opts int
	if len(args) > 0 {
		opts = args[0].Int()
	}
	weights := make([]float32, 0, len(args))
	for _, a := range args[min(len(args), 1):min(len(args), 1+phrases)] {
		weights = append(weights, float32(a.Float()))
	}
	near := len(weights)
	totals := fts.GetAuxdata(false) == nil
	buf := make([]byte, 1, 16+2*cols*phrases+5*near)
	var err error
	if totals {
		buf[0] |= 1
		err = fts.SetAuxdata(true)
		rows, e := fts.RowCount()
		err = errors.Join(err, e)
		buf = binary.AppendUvarint(buf, uint64(rows))
		for c := range cols {
			total, e := fts.ColumnTotalSize(c)
			err = errors.Join(err, e)
			buf = binary.AppendUvarint(buf, uint64(total))
		}
	}
	if opts&wantLengths != 0 {
		buf[0] |= 2
		for c := range cols {
			n, e := fts.ColumnSize(c)
			err = errors.Join(err, e)
			buf = binary.AppendUvarint(buf, uint64(n))
		}
	}
	tally := tally{counts: make([]uint64, phrases*cols), cols: cols, near: near, held: -1}
	if near < 2 {
		// One phrase has no neighbour to be near: its proximity is 0, and
		// its instances need not be read one by one.
		tally.near = 0
	}
	if opts&byPhrase != 0 {
		if opts&heldLast != 0 {
			tally.held = phrases - 1
		}
		err = errors.Join(err, tally.byPhrase(fts))
	} else {
		err = errors.Join(err, tally.inOrder(fts))
	}
	if err != nil {
		ctx.ResultError(err)
		return
	}
	counts, hits := tally.counts, tally.hits
	for _, x := range counts {
		buf = binary.AppendUvarint(buf, x)
	}
	if near > 0 {
		buf[0] |= 4
		for _, x := range proximity(hits, weights) {
			buf = binary.AppendUvarint(buf, uint64(math.Float32bits(x)))
		}
	}
	ctx.ResultBlob(buf)
}

// tally counts a row's instances of each phrase in each column, and
// keeps those of the first near phrases in the first column.
type tally struct {
	counts     []uint64 // phrase-major
	cols, near int
	held       int // byPhrase: a phrase counted once unread, or -1
	hits       []hit
}

func (t *tally) add(p, c, off int) {
	t.counts[p*t.cols+c]++
	if c == 0 && p < t.near {
		t.hits = append(t.hits, hit{phrase: p, at: off})
	}
}

// inOrder counts the instances in position order (FTS5 orders them by
// column, then offset, then phrase), so its hits need no sort. One phrase
// in one column, with no proximity to keep (a one-word query's text), is
// counted by the number of its instances alone: reading each instance was
// most of the cost of a common word's or a prefix's walk.
func (t *tally) inOrder(fts fts5.Context) error {
	n, err := fts.InstCount()
	if err != nil {
		return err
	}
	if len(t.counts) == 1 && t.near == 0 {
		t.counts[0] = uint64(n)
		return nil
	}
	if t.near > 0 {
		// Most of a text's instances are the near phrases': growing the
		// slice instance by instance cost a twentieth of the walk.
		t.hits = make([]hit, 0, n)
	}
	for i := range n {
		p, c, off, err := fts.Inst(i)
		if err != nil {
			return err
		}
		t.add(p, c, off)
	}
	return nil
}

// byPhrase counts the instances phrase by phrase.
func (t *tally) byPhrase(fts fts5.Context) error {
	// A copy, for the iterator's body to capture: capturing t would move
	// every row's tally to the heap, whichever way it counts.
	c := *t
	defer func() { *t = c }()
	for p := range fts.PhraseCount() {
		if p == c.held {
			c.counts[p*c.cols] = 1
			continue
		}
		it, err := fts.PhraseIter(p)
		if err != nil {
			return err
		}
		for col, off := range it {
			c.add(p, col, off)
		}
	}
	slices.SortFunc(c.hits, func(a, b hit) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.phrase, b.phrase)) })
	return nil
}

// hit is an occurrence of a query phrase in a column.
type hit struct{ phrase, at int }

// proximity scores how close each phrase stands to the others (Büttcher,
// Clarke and Lushman 2006): every two neighbouring occurrences of
// different phrases, d tokens apart, add to each the other's weight over
// d². Words that a text uses together, as in "file descriptor leak",
// score high where each word alone is common.
//
// hits are in position order, and at one position in phrase order, as
// FTS5 orders instances.
func proximity(hits []hit, weights []float32) []float32 {
	out := make([]float32, len(weights))
	for i := 1; i < len(hits); i++ {
		a, b := hits[i-1], hits[i]
		if a.phrase == b.phrase || b.at <= a.at {
			continue
		}
		d := float32(b.at - a.at)
		out[a.phrase] += weights[b.phrase] / (d * d)
		out[b.phrase] += weights[a.phrase] / (d * d)
	}
	return out
}

// TermTable names a full-text table for term statistics.
type TermTable int

// The full-text tables: a file's text, and its name, folder names, title,
// keywords and summary (in that column order).
const (
	ContentTable TermTable = iota
	FileTable
)

func (t TermTable) name() string {
	if t == FileTable {
		return "fts_files"
	}
	return "fts_content"
}

// Columns are the table's columns, in its order.
func (t TermTable) Columns() []Column {
	if t == FileTable {
		return []Column{ColName, ColFolders, ColTitle, ColKeywords, ColSummary}
	}
	return []Column{ColText}
}

// TableStats are a table's totals, for length normalisation.
type TableStats struct {
	Rows   int64
	Tokens []int64 // per column
}

// TermMatch is one file matching a full-text expression: the count of each
// of the expression's phrases per column and, when asked for, its column
// lengths.
type TermMatch struct {
	FileID int64
	Len    []int32 // tokens per column; nil unless TermScope.Lengths
	TF     []int32 // phrase-major: TF[phrase*Cols + column]
	Cols   int
	// Near is the proximity of each of the first TermScope.Near phrases in
	// the first column (see proximity); nil unless asked for.
	Near []float32
}

// Freq is the count of a phrase in a column.
func (m TermMatch) Freq(phrase, column int) int32 { return m.TF[phrase*m.Cols+column] }

// TermScope narrows TermMatches.
type TermScope struct {
	Only   []int64    // non-nil: only these files (an empty list matches none)
	Filter FileFilter // only files passing it
	// Lengths asks for each match's column lengths (a lookup per match).
	Lengths bool
	// Near asks for the proximity in the first column of the expression's
	// first len(Near) phrases, each neighbour counting its weight here.
	Near []float64
	// HeldLast, for an expression of All phrases, counts the last phrase once in the
	// first column of every match, without reading its instances (see
	// heldLast); its proximity, if asked for, stays 0.
	HeldLast bool
	// Limit, when positive, stops after that many matches, newest files
	// (highest ids) first: a bound for expressions that match a large part
	// of the index.
	Limit int
}

// TermMatches returns the files of the table matching q within scope,
// with the counts of each of q's phrases; stats (the table's totals) are
// filled when anything matches. The phrases of an expression of All are
// counted phrase by phrase, as every match holds each (see byPhrase);
// counts are the same either way.
func (s *Store) TermMatches(ctx context.Context, t TermTable, q Expr, scope TermScope) ([]TermMatch, TableStats, error) {
	phrases := len(q.Phrases)
	var stats TableStats
	if scope.Only != nil && len(scope.Only) == 0 {
		return nil, stats, nil
	}
	name := t.name()
	opts := 0
	if scope.Lengths {
		opts |= wantLengths
	}
	if q.All {
		opts |= byPhrase
		if scope.HeldLast {
			opts |= heldLast
		}
	}
	fargs := fmt.Sprint(opts)
	for _, w := range scope.Near[:min(len(scope.Near), phrases)] {
		fargs += `, ` + strconv.FormatFloat(w, 'g', -1, 64)
	}
	from, where, args := matchesOf(name, q.fts5(), scope.Filter)
	sel := `SELECT ` + name + `.rowid, ` + termFreqsFunc + `(` + name + `, ` + fargs + `)` + from
	if scope.Only != nil {
		// A test of each match, not rowid lookups: each lookup would run
		// the whole expression again, where one pass over its posting
		// lists serves every file. The pass is bounded by the first and
		// last file (FTS5 seeks to the first), so a caller may split a
		// long one in parts that run at once.
		set := newIDSet(scope.Only)
		where += ` AND ` + name + `.rowid BETWEEN ? AND ? AND ` + inFunc + `(?, ` + name + `.rowid)`
		args = append(args, set.lo, set.hi, sqlite3.Pointer(set))
	}
	sel += where
	if scope.Limit > 0 {
		sel += ` ORDER BY ` + name + `.rowid DESC LIMIT ?`
		args = append(args, scope.Limit)
	}
	rows, err := s.rdb().QueryContext(ctx, sel, args...)
	if err != nil {
		return nil, stats, fmt.Errorf("%s terms: %w", name, err)
	}
	defer rows.Close()
	cols := len(t.Columns())
	var out []TermMatch
	near := min(len(scope.Near), phrases)
	vals := make([]uint64, 0, 1+2*cols+phrases*cols+near)
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, stats, err
		}
		vals = vals[:0]
		for len(blob) > 0 {
			v, n := binary.Uvarint(blob)
			if n <= 0 {
				return nil, stats, fmt.Errorf("%s terms: bad record", name)
			}
			vals = append(vals, v)
			blob = blob[n:]
		}
		flags, want := uint64(0), 1+phrases*cols
		if len(vals) > 0 {
			flags = vals[0]
		}
		if flags&1 != 0 {
			want += 1 + cols
		}
		if flags&2 != 0 {
			want += cols
		}
		if flags&4 != 0 {
			want += near
		}
		if len(vals) != want {
			return nil, stats, fmt.Errorf("%s terms: %d values for %d phrases", name, len(vals), phrases)
		}
		at := 1
		if flags&1 != 0 {
			stats.Rows = int64(vals[at])
			stats.Tokens = make([]int64, cols)
			for c := range cols {
				stats.Tokens[c] = int64(vals[at+1+c])
			}
			at += 1 + cols
		}
		m := TermMatch{FileID: id, TF: make([]int32, phrases*cols), Cols: cols}
		if flags&2 != 0 {
			m.Len = make([]int32, cols)
			for c := range cols {
				m.Len[c] = int32(vals[at+c])
			}
			at += cols
		}
		for i := range m.TF {
			m.TF[i] = int32(vals[at+i])
		}
		at += len(m.TF)
		if flags&4 != 0 {
			m.Near = make([]float32, near)
			for i := range m.Near {
				m.Near[i] = math.Float32frombits(uint32(vals[at+i]))
			}
		}
		out = append(out, m)
	}
	return out, stats, rows.Err()
}

// PhraseFiles returns, for each of phrases, the files of table t holding
// it within filter: rowids alone, with no auxiliary function, which walks
// a posting list a tenth as dearly as TermMatches (that reads every
// instance of every phrase in each match).
func (s *Store) PhraseFiles(ctx context.Context, t TermTable, phrases []Phrase, filter FileFilter) ([][]int64, error) {
	name := t.name()
	out := make([][]int64, len(phrases))
	for i, p := range phrases {
		from, where, args := matchesOf(name, p.fts5(), filter)
		ids, err := queryList[int64](ctx, s.rdb(), `SELECT `+name+`.rowid`+from+where, args...)
		if err != nil {
			return nil, fmt.Errorf("%s files: %w", name, err)
		}
		out[i] = ids
	}
	return out, nil
}

// matchesOf returns the FROM and WHERE clauses, and their arguments, of
// a query over the rows of full-text table name matching expr whose file
// passes filter.
func matchesOf(name, expr string, filter FileFilter) (from, where string, args []any) {
	from = ` FROM ` + name
	where = ` WHERE ` + name + ` MATCH ?`
	args = []any{expr}
	if !filter.Empty() {
		cond, fargs := filter.where("f")
		from += ` JOIN files f ON f.id = ` + name + `.rowid`
		where += ` AND ` + cond
		args = append(args, fargs...)
	}
	return from, where, args
}

// Lengths returns the tokens per column of the given files in table t,
// as TermMatches reports them with Lengths, from FTS5's docsize table:
// one row look-up a file, without walking a posting list. Files without
// a row there are absent.
func (s *Store) Lengths(ctx context.Context, t TermTable, ids []int64) (map[int64][]int32, error) {
	out := make(map[int64][]int32, len(ids))
	err := queryIn(ctx, s.rdb(), `SELECT id, sz FROM `+t.name()+`_docsize WHERE id IN {list}`, nil, ids, func(rows *sql.Rows) error {
		var id int64
		var sz []byte
		if err := rows.Scan(&id, &sz); err != nil {
			return err
		}
		cols := make([]int32, len(t.Columns()))
		for c := range cols {
			v, n := varint(sz)
			if n == 0 {
				return fmt.Errorf("column sizes of %d in %s: %w", id, t.name(), sqlite3.CORRUPT)
			}
			cols[c], sz = int32(min(v, math.MaxInt32)), sz[n:]
		}
		out[id] = cols
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("lengths: %w", err)
	}
	return out, nil
}

// varint decodes SQLite's variable-length integer (big-endian groups of
// seven bits, the ninth byte whole), as FTS5 writes column sizes; n is 0
// when b ends inside one.
func varint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// NameMatches returns up to limit files whose name contains any of the
// given substrings (three characters or more; shorter ones are ignored),
// shortest names first. A substring that may be in more than
// rankedNamesMost names (a common word in a million) gives its newest
// files instead, after the others: ranking every one of its matches took
// half a second, to order names that differ only in length.
func (s *Store) NameMatches(ctx context.Context, substrings []string, limit int) ([]int64, error) {
	var rare, common []string
	for _, sub := range substrings {
		// A name holds no NUL byte, and FTS5 would read the expression
		// only up to one ("unterminated string").
		if len([]rune(sub)) < 3 || strings.ContainsRune(sub, 0) {
			continue
		}
		phrase := `"` + strings.ReplaceAll(sub, `"`, `""`) + `"`
		if n, err := s.namesHolding(ctx, phrase); err != nil {
			return nil, fmt.Errorf("name search: %w", err)
		} else if n > rankedNamesMost {
			common = append(common, phrase)
		} else {
			rare = append(rare, phrase)
		}
	}
	var out []int64
	if len(rare) > 0 {
		ids, err := queryList[int64](ctx, s.rdb(), `SELECT rowid FROM fts_names WHERE fts_names MATCH ? ORDER BY rank LIMIT ?`,
			strings.Join(rare, " OR "), limit)
		if err != nil {
			return nil, fmt.Errorf("name search: %w", err)
		}
		out = ids
	}
	if len(common) > 0 && len(out) < limit {
		ids, err := queryList[int64](ctx, s.rdb(), `SELECT rowid FROM fts_names WHERE fts_names MATCH ? ORDER BY rowid DESC LIMIT ?`,
			strings.Join(common, " OR "), limit)
		if err != nil {
			return nil, fmt.Errorf("name search: %w", err)
		}
		seen := make(map[int64]bool, len(out))
		for _, id := range out {
			seen[id] = true
		}
		for _, id := range ids {
			if len(out) < limit && !seen[id] {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// rankedNamesMost is the most names a substring's matches are ranked
// among.
var rankedNamesMost = 20_000

// namesHolding counts the names that hold the phrase, up to
// rankedNamesMost+1: listing that many matches costs a few milliseconds,
// where ranking a hundred thousand cost half a second.
func (s *Store) namesHolding(ctx context.Context, phrase string) (int, error) {
	var n int
	err := s.rdb().QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM fts_names WHERE fts_names MATCH ? LIMIT ?)`,
		phrase, rankedNamesMost+1).Scan(&n)
	return n, err
}

// Vocabulary streams the words of the text (cards false) or of the names,
// folders, titles, keywords and summaries (cards true) that at least
// minFiles files hold and that consist of lower-case ASCII letters, with
// their file counts. It reads the whole full-text index: a background job.
func (s *Store) Vocabulary(ctx context.Context, cards bool, minFiles int, fn func(term string, files int)) error {
	vocab := "fts_content_vocab"
	if cards {
		vocab = "fts_files_vocab"
	}
	rows, err := s.rdb().QueryContext(ctx, `SELECT term, doc FROM `+vocab+` WHERE doc >= ? AND term NOT GLOB '*[^a-z]*'`, minFiles)
	if err != nil {
		return fmt.Errorf("vocabulary: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var n int
		if err := rows.Scan(&term, &n); err != nil {
			return err
		}
		fn(term, n)
	}
	return rows.Err()
}
