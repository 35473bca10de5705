package store

import (
	"fmt"
	"testing"
)

// The check reads the full-text index as it is now. A read connection
// keeps the structure of each FTS5 table (which segments it has) from its
// last search; SQLite's quick_check asks FTS5 to check itself without
// reading that structure again, so on a connection that searched before
// a merge it looked for the merged-away segments and reported damage
// that was not there.
func TestCheckAfterAMergeFindsNoDamage(t *testing.T) {
	s, dirID := openWithDir(t, "/notes")
	s.rdb().SetMaxOpenConns(1) // the search and the check share one connection
	for i := range 40 {
		d := doc(dirID, fmt.Sprintf("/n%03d.txt", i), fmt.Sprintf("roof and gutter, note %d", i))
		d.File.Filename = fmt.Sprintf("note %d", i)
		if _, err := s.PutDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range fullTextTables {
		var n int
		if err := s.rdb().QueryRow(`SELECT count(*) FROM ` + table + ` WHERE ` + table + ` MATCH 'note'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	for more := true; more; {
		var err error
		if more, err = s.MergeStep(ctx, 1000); err != nil {
			t.Fatal(err)
		}
	}
	problems, err := s.Check(ctx)
	if err != nil || len(problems) > 0 {
		t.Fatalf("a sound index checked: %v %v", problems, err)
	}
}
