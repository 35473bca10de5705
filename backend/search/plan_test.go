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
	df := map[string]int{"file": matchBudget + 1, "descriptor": matchBudget, "leak": 3}
	want := `{name title} : ("file") OR "descriptor" OR "leak" OR "leak" *`
	if got := p.nameExpr(df); got != want {
		t.Errorf("nameExpr(df) = %s, want %s", got, want)
	}
}
