package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestInline(t *testing.T) {
	for in, want := range map[string]string{
		"plain words":                         "plain words",
		"  padded  ":                          "padded",
		"**bold** and *it* and ~~gone~~":      "bold and it and gone",
		"snake_case_name stays, _emph_ goes":  "snake_case_name stays, emph goes",
		"see [the docs](https://x.y/z) now":   "see the docs now",
		"a [ref link][1] and [empty][]":       "a ref link and empty",
		"![a roof](roof.png) photo":           "a roof photo",
		"[![badge](b.svg)](https://ci)":       "badge",
		"use `go test` here":                  "use go test here",
		"unclosed `tick":                      "unclosed tick",
		"one<br>two":                          "one two",
		"this is <b>bold</b> text":            "this is bold text",
		"<!-- note --> after":                 "after",
		"mail <mailto:me@x.y> or <https://a>": "mail me@x.y or https://a",
		"math: 1 < 2 and 3 > 2":               "math: 1 < 2 and 3 > 2",
		`escaped \*star\* and \[bracket]`:     "escaped *star* and [bracket]",
		"[not a link] alone":                  "[not a link] alone",
	} {
		if got := Inline(in); got != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}

// Hostile input costs linear time: bounded look-ahead, bounded nesting.
func TestInlineOnHostileLines(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("[", 200000), strings.Repeat("![", 100000), strings.Repeat("<", 200000),
		strings.Repeat("`", 200000), strings.Repeat("[a](", 50000), strings.Repeat("[[[[[x]]]]](y)", 20000),
	} {
		if got := Inline(s); len(got) > len(s) {
			t.Errorf("output longer than input: %d > %d", len(got), len(s))
		}
	}
}

func FuzzInline(f *testing.F) {
	for _, s := range []string{"**a** [b](c) ![d](e) `f` <g> <https://h> \\*", "[[[", "a_b_c", "<!--", "é<br>ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Inline(s)
		if len(got) > len(s)+strings.Count(s, ">") {
			t.Fatalf("Inline(%q) = %q grew", s, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Inline(%q) = %q is not UTF-8", s, got)
		}
	})
}
