package store

import (
	"strings"
	"testing"
)

// A folder's counts are read with every status of it, on the writer's
// connection, so each must come from an index and never from the rows of
// all the folder's files: a count that read them (the problem count did,
// for the error column) held every save behind 40 ms on 20,000 files.
func TestFolderCountsReadIndexesOnly(t *testing.T) {
	s, _ := openTemp(t)
	for _, q := range []string{
		`SELECT ` + dirColumns + ` FROM watched_directories d WHERE d.id = 1`,
		`SELECT ` + dirColumns + ` FROM watched_directories d ORDER BY d.id`,
	} {
		rows, err := s.rdb().Query(`EXPLAIN QUERY PLAN ` + q)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, step := range plan {
			if strings.Contains(step, " f ") && !strings.Contains(step, "COVERING INDEX") &&
				!strings.Contains(step, "INDEX files_problems") {
				t.Errorf("a folder count reads file rows: %q\nplan:\n%s", step, strings.Join(plan, "\n"))
			}
		}
	}
}
