package store

import (
	"errors"
	"testing"
	"time"

	"trove/backend/core"
)

func saved(name, query string) core.SavedSearch {
	now := time.Unix(1_700_000_000, 0)
	return core.SavedSearch{Name: name, Request: core.SavedRequest{Query: query, Filters: `{"extensions":["pdf"]}`, Sort: "name", Mode: "names"},
		Created: now, Updated: now}
}

// Saved searches keep their request whole, list by name, refuse a name
// another has in any case, and never reuse an id.
func TestSavedSearchesKeepTheirRequest(t *testing.T) {
	s, _ := openTemp(t)
	inv, err := s.AddSavedSearch(ctx, saved("Invoices", "invoice"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddSavedSearch(ctx, saved(" invoices", "other")); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a name differing by case and blanks: %v, want ErrNameTaken", err)
	}
	notes, err := s.AddSavedSearch(ctx, saved("alpha notes", "notes"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.SavedSearch(ctx, inv.ID)
	if err != nil || got.Name != "Invoices" || got.Request != inv.Request || !got.Created.Equal(inv.Created) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, inv)
	}
	list, err := s.SavedSearches(ctx)
	if err != nil || len(list) != 2 || list[0].ID != notes.ID || list[1].ID != inv.ID {
		t.Fatalf("list %+v, %v: want alpha notes, then Invoices", list, err)
	}
	if n, err := s.CountSavedSearches(ctx); err != nil || n != 2 {
		t.Fatalf("count %d, %v", n, err)
	}

	got.Name, got.Notify, got.Request.Query = "INVOICES", true, "bill"
	if err := s.UpdateSavedSearch(ctx, got); err != nil {
		t.Fatalf("a rename to its own name in other case: %v", err)
	}
	got.Name = "Alpha Notes"
	if err := s.UpdateSavedSearch(ctx, got); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a rename to another's name: %v, want ErrNameTaken", err)
	}
	if again, _ := s.SavedSearch(ctx, inv.ID); again.Name != "INVOICES" || !again.Notify || again.Request.Query != "bill" {
		t.Fatalf("after update: %+v", again)
	}

	if err := s.DeleteSavedSearch(ctx, inv.ID); err != nil {
		t.Fatal(err)
	}
	var m *core.Missing
	if _, err := s.SavedSearch(ctx, inv.ID); !errors.As(err, &m) || m.Thing != core.ThingSaved {
		t.Fatalf("deleted, read: %v", err)
	}
	if err := s.DeleteSavedSearch(ctx, inv.ID); !errors.As(err, &m) {
		t.Fatalf("deleted twice: %v", err)
	}
	if err := s.UpdateSavedSearch(ctx, got); !errors.As(err, &m) {
		t.Fatalf("update of a deleted one: %v", err)
	}
	next, err := s.AddSavedSearch(ctx, saved("Invoices", "invoice"))
	if err != nil || next.ID <= notes.ID {
		t.Fatalf("new id %d after %d (%v): ids are never reused", next.ID, notes.ID, err)
	}
}

// A saved search's notifications look at the files added since it last
// looked, as far as none of them waits for its content.
func TestSettledThroughStopsBeforePendingFiles(t *testing.T) {
	s, dirID := openWithDir(t, "/home/u")
	if last, err := s.LastFileID(ctx); err != nil || last != 0 {
		t.Fatalf("empty index: last file id %d, %v", last, err)
	}
	ids := make([]int64, 3)
	for i, p := range []string{"/a.txt", "/b.txt", "/c.txt"} {
		id, err := s.PutDocument(ctx, doc(dirID, "/home/u"+p, "text"))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	if last, err := s.LastFileID(ctx); err != nil || last != ids[2] {
		t.Fatalf("last file id %d, %v; want %d", last, err, ids[2])
	}
	if got, err := s.SettledThrough(ctx, ids[0]); err != nil || got != ids[2] {
		t.Fatalf("all indexed: settled through %d, %v; want %d", got, err, ids[2])
	}
	f := core.File{DirID: dirID, Path: "/home/u/d.txt", Filename: "d.txt", Extension: ".txt", Size: 1, Modified: time.Now(), State: core.StatePending}
	if _, err := s.PutNames(ctx, []Name{{File: f, Rel: "d.txt"}}); err != nil {
		t.Fatal(err)
	}
	later, err := s.PutDocument(ctx, doc(dirID, "/home/u/e.txt", "text"))
	if err != nil {
		t.Fatal(err)
	}
	pending, err := s.FileByPath(ctx, f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.SettledThrough(ctx, ids[0]); err != nil || got != pending.ID-1 {
		t.Fatalf("a file pending: settled through %d, %v; want %d (before it)", got, err, pending.ID-1)
	}
	if got, err := s.SettledThrough(ctx, later); err != nil || got != later {
		t.Fatalf("nothing new: settled through %d, %v; want %d", got, err, later)
	}
}

// A rebuild replaces the index; the saved searches are kept, with their
// ids, and new ones get later ids.
func TestRebuildKeepsSavedSearches(t *testing.T) {
	s, _ := openTemp(t)
	inv, err := s.AddSavedSearch(ctx, saved("Invoices", "invoice"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rebuild(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SavedSearch(ctx, inv.ID); err != nil || got.Name != inv.Name || got.Request != inv.Request {
		t.Fatalf("after a rebuild: %+v, %v; want %+v", got, err, inv)
	}
	next, err := s.AddSavedSearch(ctx, saved("Notes", "notes"))
	if err != nil || next.ID <= inv.ID {
		t.Fatalf("new id %d after %d (%v)", next.ID, inv.ID, err)
	}
}
