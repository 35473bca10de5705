package store

import (
	"slices"
	"testing"
	"time"
)

// An index an older Trove wrote, with unmarked stems and a language it
// could not tell, is written again a few files at a time: its files are
// found all along, each step writes the next files, and at the end the
// languages are told again and queries look for the new terms alone.
func TestOldTextIsWrittenAgainInTheBackground(t *testing.T) {
	s, data := openTemp(t)
	d, err := s.AddDirectory(ctx, "/u", true, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	dir := d.ID
	german := "Die Dateien wurden gestern vom Verwalter gelöscht, weil der Speicherplatz auf dem Server knapp wurde. " +
		"Bitte prüfen Sie die Sicherungen, bevor Sie die Verzeichnisse wiederherstellen, und melden Sie Fehler sofort."
	writeOldRows.Store(true)
	var ids []int64
	ids = append(ids, putIn(t, s, dir, "/u/de.txt", "de", german))
	ids = append(ids, putIn(t, s, dir, "/u/unknown.txt", "", german)) // told no language then
	for i := range 3 {
		ids = append(ids, putIn(t, s, dir, "/u/en"+string(rune('a'+i))+".txt", "en", "The files were removed from the server."))
	}
	writeOldRows.Store(false)
	s = reopenAt(t, s, data, 12)

	if !s.Retokenizing() {
		t.Fatal("an index of schema 12 opened: no text waits to be written again")
	}
	// Sicherung is in no text: the German file holds Sicherungen, whose
	// stem, sicher, is its old row's term.
	sicherung := Phrase{Words: []string{"Sicherung"}}
	if got := matchedFiles(t, s, sicherung); !slices.Equal(got, ids[:1]) {
		t.Fatalf("before: Sicherung matched %v, want the German file %v (its old row)", got, ids[:1])
	}
	steps := 0
	for more := true; more; steps++ {
		if more, err = s.RetokenizeStep(ctx, 2); err != nil {
			t.Fatal(err)
		}
		// Found at every step, whichever kind its row is.
		if got := matchedFiles(t, s, sicherung); len(got) == 0 || got[0] != ids[0] {
			t.Fatalf("step %d: Sicherung matched %v, want the German file first", steps, got)
		}
	}
	if steps != 3 || s.Retokenizing() {
		t.Errorf("%d steps of 2 for 5 files, still retokenizing %v; want 3, false", steps, s.Retokenizing())
	}
	// Both German files are German now, found by the German stem alone.
	if got := matchedFiles(t, s, sicherung); !slices.Equal(got, ids[:2]) {
		t.Errorf("after: Sicherung matched %v, want both German files %v", got, ids[:2])
	}
	if _, err := s.wdb().Exec(`INSERT INTO fts_content(rowid, text) VALUES(999, fts5_locale('', 'sicherung'))`); err != nil {
		t.Fatal(err)
	}
	if got := matchedFiles(t, s, Phrase{Words: []string{"Dateien"}}); slices.Contains(got, 999) {
		t.Errorf("after: Dateien matched an unmarked stem (%v)", got)
	}
	// A step with nothing left says so, and leaves nothing waiting.
	s.langs.unmarked.Store(true)
	if more, err := s.RetokenizeStep(ctx, 2); more || err != nil || s.Retokenizing() {
		t.Errorf("a step with nothing left: more %v, %v, still retokenizing %v", more, err, s.Retokenizing())
	}
	// Opened again, nothing waits.
	s = reopenAt(t, s, data, 13)
	if s.Retokenizing() {
		t.Error("opened again after the work: still retokenizing")
	}
}

// reopenAt takes s's index back to schema version v, closes it and opens
// it again (which upgrades it).
func reopenAt(t *testing.T, s *Store, data string, v int) *Store {
	t.Helper()
	if v < latestSchema(t) {
		rollBack(t, s, v)
	}
	s.Close()
	s2, err := Open(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s2.Close() })
	return s2
}
