package apidoc_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"trove/backend/shell/apidoc"
	"trove/backend/shell/apidoc/check"
)

// The kept document is what the Go types say now.
func TestKeptDocumentIsCurrent(t *testing.T) {
	doc, err := apidoc.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, apidoc.Kept) {
		t.Fatal("backend/shell/apidoc/openapi.json differs from what the Go types say: run `go generate ./backend/apidoc` (or `make openapi`) and note the change in docs/api-changes.md")
	}
}

// The document is valid OpenAPI 3.1 (the OpenAPI 3.1 schema, as
// libopenapi-validator checks it).
func TestDocumentIsValidOpenAPI31(t *testing.T) {
	doc, err := libopenapi.NewDocument(apidoc.Kept)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetSpecInfo().Version; v != "3.1.0" {
		t.Fatalf("version %q", v)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("building the model: %v", err)
	}
	if n := model.Model.Paths.PathItems.Len(); n < 25 {
		t.Fatalf("only %d paths", n)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("%s: %s", e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", se.Reason, se.FieldPath)
			}
		}
	}
}

// A validator must also say no: the OpenAPI 3.1 check refuses a broken
// document.
func TestBrokenDocumentIsRefused(t *testing.T) {
	broken := bytes.Replace(apidoc.Kept, []byte(`"responses": {`), []byte(`"responses": 7, "x": {`), 1)
	doc, err := libopenapi.NewDocument(broken)
	if err != nil {
		return // refused while parsing: fine
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return
	}
	if ok, _ := v.ValidateDocument(); ok {
		t.Fatal("a document whose responses is a number passed")
	}
}

// A search answer as the server writes it, then the same answer with one
// field added, renamed or retyped: only the first passes.
func TestDriftIsCaught(t *testing.T) {
	c, err := check.Default()
	if err != nil {
		t.Fatal(err)
	}
	good := `{"results": [{"file": {"file_path": "/d/a.txt", "filename": "a.txt", "extension": "txt", "created": "2026-01-02T03:04:05",
		"modified": "2026-01-02T03:04:05", "accessed": "2026-01-02T03:04:05", "title": "A", "summary": "", "keywords": ["a"],
		"id": 1, "size": 3, "mime": "text/plain", "content_indexed": true, "offline": false}, "relevance_score": 1.5, "semantic_score": 0.5, "keyword_score": 1, "snippet": "<mark>a</mark>",
		"keyword_match": true, "kind": "documents", "copies": []}],
		"total": 1, "total_estimated": false, "total_groups": 1, "offset": 0, "limit": 50, "sort": "relevance", "order": "desc",
		"query": "a", "fields": [], "did_you_mean": null, "facets": {"kinds": [], "languages": []}, "keyword_matches": 1}`
	if err := c.Response("POST", "/api/search/", 200, "application/json", []byte(good)); err != nil {
		t.Fatalf("the real shape fails: %v", err)
	}
	hit := func(m map[string]any) map[string]any { return m["results"].([]any)[0].(map[string]any) }
	for name, mutate := range map[string]func(map[string]any){
		"added":          func(m map[string]any) { m["took_ms"] = 3 },
		"renamed":        func(m map[string]any) { m["count"] = m["total"]; delete(m, "total") },
		"retyped":        func(m map[string]any) { m["total"] = "1" },
		"nested added":   func(m map[string]any) { hit(m)["rank"] = 1 },
		"nested renamed": func(m map[string]any) { h := hit(m); h["score"] = h["relevance_score"]; delete(h, "relevance_score") },
		"nested retyped": func(m map[string]any) { hit(m)["file"].(map[string]any)["id"] = "1" },
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(good), &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		body, _ := json.Marshal(m)
		err := c.Response("POST", "/api/search/", 200, "application/json", body)
		if err == nil {
			t.Errorf("%s field: passed", name)
		} else if !strings.Contains(err.Error(), "go generate") {
			t.Errorf("%s field: the error does not say how to regenerate: %v", name, err)
		}
	}
	// An error in another family's shape fails too.
	if c.Response("POST", "/api/search/", 400, "application/json", []byte(`{"error": "bad", "code": "X"}`)) == nil {
		t.Error("a bare error on a status-family endpoint passed")
	}
}

// Every kind of event has a schema, and a payload of the wrong shape fails.
func TestEventsAreChecked(t *testing.T) {
	c, err := check.Default()
	if err != nil {
		t.Fatal(err)
	}
	ok := `{"id": 3, "type": "file.removed", "time": "2026-01-02T03:04:05Z", "data": {"id": 7, "path": "/d/a.txt"}}`
	if err := c.Event("file.removed", []byte(ok)); err != nil {
		t.Fatal(err)
	}
	bad := `{"id": 3, "type": "file.removed", "time": "2026-01-02T03:04:05Z", "data": {"id": "7", "path": "/d/a.txt"}}`
	if c.Event("file.removed", []byte(bad)) == nil {
		t.Fatal("a retyped event field passed")
	}
	if c.Event("resync", []byte(`{"reason": "client fell behind"}`)) != nil {
		t.Fatal("resync refused")
	}
}
