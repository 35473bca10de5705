package testserver

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"trove/backend/core"
	"trove/backend/store"
)

// Seed writes indexed files straight into the server's index through a
// second connection to the same database, for API tests that need index
// content without running the indexing pipeline. rels are paths below root.
func (s *Server) Seed(root string, rels ...string) []int64 {
	s.t.Helper()
	ctx := context.Background()
	st, err := store.Open(s.DataDir)
	if err != nil {
		s.t.Fatal(err)
	}
	defer st.Close()
	dirID := int64(0)
	dirs, err := st.Directories(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, d := range dirs {
		if d.Path == root {
			dirID = d.ID
		}
	}
	if dirID == 0 {
		d, err := st.AddDirectory(ctx, root, true, "", time.Now())
		if err != nil {
			s.t.Fatal(err)
		}
		dirID = d.ID
	}
	var ids []int64
	for _, rel := range rels {
		now := time.Now()
		name := filepath.Base(rel)
		doc := store.Document{
			File: core.File{DirID: dirID, Path: filepath.Join(root, rel), Filename: name,
				Extension: strings.ToLower(filepath.Ext(name)), Size: int64(len(rel)), Created: now, Modified: now,
				Accessed: now, IndexedAt: now, Title: name, Summary: "Seeded " + rel},
			NameTerms: name,
			Chunks:    []store.Chunk{{Text: "seeded content of " + rel}},
		}
		id, err := st.PutDocument(ctx, doc)
		if err != nil {
			s.t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}
