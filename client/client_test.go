package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"trove/client"
	"trove/internal/testserver"
)

// Every method against a real Trove, and an error of each of the three
// shapes read into one *client.Error.
func TestClientAgainstARealServer(t *testing.T) {
	s := testserver.Start(t, testserver.WithToken("client-token"))
	ctx := context.Background()
	c := client.New(s.URL, s.Token)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "roof.md", "# Roof repairs\n\nThe roof leaks above the bedroom.")

	w, err := c.Watch(ctx, root)
	if err != nil || w.Directory != root || w.JobID == 0 {
		t.Fatalf("watch: %+v %v", w, err)
	}
	testserver.Eventually(t, 30*time.Second, "the folder to be indexed", func() bool {
		list, err := c.Folders(ctx)
		return err == nil && len(list) == 1 && list[0].Indexed() && list[0].IndexedCount == 1
	})
	res, err := c.Search(ctx, client.SearchRequest{Query: "roof leak"})
	if err != nil || len(res.Results) != 1 || res.Results[0].File.Title != "Roof repairs" || !strings.Contains(string(res.Raw), `"results"`) {
		t.Fatalf("search: %+v %v", res, err)
	}
	f, err := c.Lookup(ctx, root+"/roof.md")
	if err != nil || f.ID != res.Results[0].File.ID {
		t.Fatalf("lookup: %+v %v", f, err)
	}
	if g, err := c.File(ctx, f.ID); err != nil || g.Path != root+"/roof.md" {
		t.Fatalf("file: %+v %v", g, err)
	}
	if st, err := c.Status(ctx); err != nil || st.Jobs != 1 || st.Version != "test" || st.Index.Status != "ok" {
		t.Fatalf("status: %+v %v", st, err)
	}
	if q, err := c.QueueStatus(ctx); err != nil || q.Total != 0 {
		t.Fatalf("queue: %+v %v", q, err)
	}

	var e *client.Error
	// status family
	_, err = c.Search(ctx, client.SearchRequest{Query: "roof", Mode: "telepathic"})
	if !errors.As(err, &e) || e.Status != 400 || e.Code != "INVALID_PARAMETER" || e.Field != "mode" {
		t.Fatalf("search error: %#v", err)
	}
	// bare family
	_, err = c.File(ctx, 999999)
	if !errors.As(err, &e) || e.Status != 404 || e.Code == "" || e.Message == "" {
		t.Fatalf("file error: %#v", err)
	}
	// success family
	err = c.Unwatch(ctx, 999999)
	if !errors.As(err, &e) || e.Status != 404 || e.Code == "" || e.Message == "" {
		t.Fatalf("unwatch error: %#v", err)
	}
	if err := c.Unwatch(ctx, w.JobID); err != nil {
		t.Fatal(err)
	}
	// a wrong token
	_, err = client.New(s.URL, "wrong").Status(ctx)
	if !errors.As(err, &e) || e.Status != 401 || e.Code != "UNAUTHORIZED" {
		t.Fatalf("token: %#v", err)
	}
	// nobody there
	if _, err := client.New("127.0.0.1:1", "").Status(ctx); !client.IsUnreachable(err) {
		t.Fatalf("unreachable: %#v", err)
	}
}

// A search says whether its files match a word of the query; one whose
// results were found by meaning alone matched nothing (Matched), as an
// answer without the field (an older Trove, a semantic search) matched
// when it has results.
func TestSearchSaysWhetherAWordMatched(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	root := t.TempDir()
	testserver.WriteFiles(t, root, "garden.txt", "Plant tomatoes in spring. Water the garden every morning and pull the weeds.")
	s.IndexDir(root, 1)
	c := client.New(s.URL, "")
	for q, want := range map[string]bool{"tomatoes": true, "vegetables": false} {
		res, err := c.Search(ctx, client.SearchRequest{Query: q})
		if err != nil || len(res.Results) != 1 || res.Matched() != want || res.KeywordMatches == nil ||
			res.Results[0].KeywordMatch == nil || *res.Results[0].KeywordMatch != want {
			t.Errorf("%s: %+v %v, want matched %v", q, res, err, want)
		}
	}
	older := client.SearchResponse{Results: []client.SearchHit{{}}}
	if !older.Matched() || (&client.SearchResponse{}).Matched() {
		t.Error("an answer without keyword_matches: matched when it has results")
	}
}
