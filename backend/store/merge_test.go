package store

import (
	"fmt"
	"slices"
	"testing"
)

// Merging leaves each full-text table in one segment, a step at a time,
// and changes nothing a search reads: the same files match, with the
// same ranks, and FTS5's own integrity check passes.
func TestMergeStepsLeaveOneSegment(t *testing.T) {
	s, dirID := openWithDir(t, "/notes")
	words := []string{"roof", "gutter", "shingle", "chimney", "flashing", "ceiling", "storm", "attic"}
	for i := range 120 { // one commit, so one segment, each
		d := doc(dirID, fmt.Sprintf("/n%03d.txt", i), fmt.Sprintf("%s and %s, note %d", words[i%8], words[(i*3+1)%8], i))
		d.File.Filename = fmt.Sprintf("note %s %d", words[(i+5)%8], i)
		if _, err := s.PutDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	read := func() []string {
		var out []string
		for _, q := range [][2]string{{"fts_content", "shingle"}, {"fts_content", "roof OR storm"}, {"fts_files", "name:attic"}, {"fts_names", "note"}} {
			rows, err := s.rdb().Query(`SELECT rowid FROM `+q[0]+` WHERE `+q[0]+` MATCH ? ORDER BY rank, rowid`, q[1])
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				rows.Scan(&id)
				out = append(out, fmt.Sprint(q, id))
			}
			rows.Close()
		}
		return out
	}
	before := read()
	for _, table := range fullTextTables {
		if n := segments(t, s, table); n < 10 {
			t.Fatalf("%s: %d segments before merging, want many", table, n)
		}
	}
	steps := 0
	for ; steps < 1000; steps++ {
		more, err := s.MergeStep(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
	}
	if steps < 3 || steps == 1000 {
		t.Fatalf("merged in %d steps of two pages: want several, and an end", steps)
	}
	if more, err := s.MergeStep(ctx, 2); more || err != nil {
		t.Fatalf("a merged index merged again: %v %v", more, err)
	}
	for _, table := range fullTextTables {
		if n := segments(t, s, table); n != 1 {
			t.Fatalf("%s: %d segments after merging", table, n)
		}
	}
	if after := read(); !slices.Equal(before, after) || len(after) == 0 {
		t.Fatalf("searches changed by merging:\n%v\n%v", before, after)
	}
	for _, table := range fullTextTables {
		if _, err := s.wdb().Exec(`INSERT INTO ` + table + `(` + table + `) VALUES('integrity-check')`); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
	}
	if n, err := s.CountIndexed(ctx); n != 120 || err != nil {
		t.Fatalf("indexed files %d, %v", n, err)
	}
	// A new commit is a new segment: there is something to merge again.
	if _, err := s.PutDocument(ctx, doc(dirID, "/late.txt", "a late note on the roof")); err != nil {
		t.Fatal(err)
	}
	if more, err := s.MergeStep(ctx, 2); !more || err != nil {
		t.Fatalf("a new segment was not merged: %v %v", more, err)
	}
}
