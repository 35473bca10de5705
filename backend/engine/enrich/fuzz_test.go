package enrich

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzBuiltin feeds arbitrary text, titles and names to the builtin
// enricher: it must never panic, and its card must keep its bounds.
func FuzzBuiltin(f *testing.F) {
	for _, name := range []string{"meeting_notes_2024-03-01.md", "README.md", "the_lighthouse_keeper.txt", "ratelimit.go", "sales_q3.csv"} {
		f.Add(name, "", readTestdata(f, name)[:min(2000, len(readTestdata(f, name)))])
	}
	f.Add("Untitled.docx", "Microsoft Word - x.docx", "")
	f.Add("a.py", "", "\"\"\"unterminated docstring\n# Copyright (c) 2024\n")
	f.Add("x.csv", "", "a,b\n\"1,2\",3\n")
	f.Add("", "\xff\xfe", "Mr. A. B. Smith went to Washington. He arrived at 3 p.m. on Jan. 5!\n- [x] done\n> quote\n```\ncode\n")
	stats := newMemStats("the roof leaked", "a tide table")
	f.Fuzz(func(t *testing.T, filename, title, text string) {
		for _, e := range []*Builtin{NewBuiltin(nil), NewBuiltin(stats)} {
			c, err := e.Enrich(context.Background(), Input{Path: "/x/" + filename, Filename: filename, Title: title, Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if c.Title == "" {
				t.Error("empty title")
			}
			if n := utf8.RuneCountInString(c.Title); n > maxTitleRunes {
				t.Errorf("title of %d runes", n)
			}
			if n := utf8.RuneCountInString(c.Summary); n >= 400 {
				t.Errorf("summary of %d runes", n)
			}
			if len(c.Keywords) > 10 {
				t.Errorf("%d keywords", len(c.Keywords))
			}
			for _, s := range append([]string{c.Title, c.Summary}, c.Keywords...) {
				if !utf8.ValidString(s) {
					t.Errorf("invalid UTF-8 %q", s)
				}
			}
			for _, k := range c.Keywords {
				if k == "" || k != strings.ToLower(k) {
					t.Errorf("keyword %q", k)
				}
			}
			if strings.TrimSpace(text) == "" && c.Summary != "" {
				t.Errorf("summary %q from empty text", c.Summary)
			}
		}
	})
}

// FuzzParseAnswer: whatever a model says, parsing never panics and keeps
// the card's bounds.
func FuzzParseAnswer(f *testing.F) {
	f.Add(goodAnswer)
	f.Add(`{"title": 1, "summary": ["a", 2], "keywords": "x, y"}`)
	f.Add(`<think>{</think>{"card": {"tags": ["A", "a"]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseAnswer(s)
		if err != nil {
			return
		}
		if utf8.RuneCountInString(c.Summary) >= 400 || utf8.RuneCountInString(c.Title) > maxTitleRunes || len(c.Keywords) > 10 {
			t.Errorf("card out of bounds: %+v", c)
		}
		for _, x := range append([]string{c.Title, c.Summary}, c.Keywords...) {
			if !utf8.ValidString(x) {
				t.Errorf("invalid UTF-8 %q", x)
			}
		}
	})
}
