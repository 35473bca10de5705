package store

import "testing"

// The FTS5 syntax is written here alone, and a person's words are always
// quoted: whatever they hold, they are words, never operators.
func TestExpressionsQuoteEveryWord(t *testing.T) {
	for _, c := range []struct {
		e    Expr
		want string
	}{
		{Any(ph("roof"), ph("leak")), `"roof" OR "leak"`},
		{All(ph("command", "line"), ph("x")), `"command line" AND "x"`},
		{Any(Phrase{Words: []string{"quart"}, Prefix: true}), `"quart" *`},
		{Any(Phrase{Words: []string{"ann"}, In: []Column{ColName, ColTitle}}), `{name title} : ("ann")`},
		{Any(ph(`say "NEAR(a b)"`), ph("OR"), ph("*")), `"say ""NEAR(a b)""" OR "OR" OR "*"`},
	} {
		if got := c.e.fts5(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.e, got, c.want)
		}
	}
}
