package search

import (
	"testing"

	"trove/backend/query"
)

func TestNameExprKeepsCommonWordsToNamesAndTitles(t *testing.T) {
	p := newPlan(query.Parse("file descriptor leak"))
	if got, want := p.nameExpr(nil), `"file" OR "descriptor" OR "leak" OR "leak" *`; got != want {
		t.Errorf("nameExpr(nil) = %s, want %s", got, want)
	}
	common := func(c clause) bool { return c.stem == "file" }
	want := `{name title} : ("file") OR "descriptor" OR "leak" OR "leak" *`
	if got := p.nameExpr(common); got != want {
		t.Errorf("nameExpr(common) = %s, want %s", got, want)
	}
}
