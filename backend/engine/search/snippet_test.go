package search

import (
	"context"
	"html"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/store"
	"trove/backend/store/tokens"
)

// A long token before the only hit once made the window end before it
// started (slice bounds out of range), inside a search goroutine.
func TestSnippetAfterALongToken(t *testing.T) {
	text := "Meeting notes " + strings.Repeat("0123456789abcdef", 25) + " zebraquux budget"
	got := Snippet(text, map[string]bool{tokens.Stem("zebraquux"): true}, nil)
	if !strings.Contains(got, "<mark>zebraquux</mark>") {
		t.Fatalf("hit not shown: %q", got)
	}
	checkSnippet(t, text, got, snippetLen)
}

func TestSnippetCutsLongTokensOnCharacters(t *testing.T) {
	text := strings.Repeat("é", 400) + " ünïcode " + strings.Repeat("日本", 200)
	for n := 1; n <= 200; n++ {
		got, _ := newMarker(map[string]bool{tokens.Stem("ünïcode"): true}, nil).snippet(text, n)
		checkSnippet(t, text, got, n)
	}
}

// The case from the field, end to end: the file is indexed, the search
// answers with the hit highlighted instead of ending the process.
func TestSearchSnippetOfALongTokenFile(t *testing.T) {
	e := engineFor(t)
	ctx := context.Background()
	st := e.Store.(*store.Store) // the real index under the engine
	d, _ := st.AddDirectory(ctx, "/long", true, "", time.Now())
	text := "Meeting notes " + strings.Repeat("a1b2c3d4", 50) + " zebraquux budget"
	if _, err := st.PutDocument(ctx, store.Document{
		File:   core.File{DirID: d.ID, Path: "/long/notes.txt", Filename: "notes.txt", Extension: ".txt", Modified: time.Now()},
		Chunks: []store.Chunk{{Text: text}},
	}); err != nil {
		t.Fatal(err)
	}
	for limit := 1; limit <= 60; limit += 59 {
		rs, err := e.Search(ctx, Request{Query: "zebraquux", Limit: limit, Snippets: true})
		if err != nil || len(rs) == 0 || rs[0].File.Path != "/long/notes.txt" || !strings.Contains(rs[0].Snippet, "<mark>zebraquux</mark>") {
			t.Fatalf("limit %d: %+v %v", limit, rs, err)
		}
	}
}

// White space that is neither an ASCII space nor a line break (\v, U+2028)
// once passed through, so the snippet was not a line of the text.
func TestCollapseEveryKindOfSpace(t *testing.T) {
	for in, want := range map[string]string{
		"Z\v": "Z ", "a\u2028b": "a b", "a  b": "a b", "a b": "a b", "a\u00a0\tb": "a b", "ab": "ab",
	} {
		if got := collapse(in); got != want {
			t.Errorf("collapse(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzSnippet(f *testing.F) {
	f.Add("Meeting notes "+strings.Repeat("0123456789abcdef", 25)+" zebraquux budget", "zebraquux", uint8(219))
	f.Add("ASN.1 DER encoding of the "+strings.Repeat("x", 300)+" encoder", "ASN.1 DER encoding", uint8(59))
	f.Add(strings.Repeat("日本語", 100), "日本", uint8(0))
	f.Add("a\xffb\xfe leak leaking\n\t  leaks", "leak", uint8(3))
	f.Add("leak\vleak\n leak", "leak", uint8(16))
	f.Fuzz(func(t *testing.T, text, query string, n uint8) {
		limit := 1 + int(n)%200
		stems := map[string]bool{}
		var prefixes []string
		for i, w := range tokens.Words(query) {
			stems[tokens.Stem(w)] = true
			if i == 0 {
				prefixes = append(prefixes, tokens.Fold(w))
			}
		}
		got, at := newMarker(stems, prefixes).snippet(text, limit)
		checkSnippet(t, text, got, limit)
		if at < 0 || at > len(text) {
			t.Fatalf("the snippet's place %d is outside the text (%d bytes)", at, len(text))
		}
	})
}

// checkSnippet asserts what every snippet keeps: valid UTF-8 when the text
// is, balanced marks, a window of at most n bytes, and text that comes
// from the input.
func checkSnippet(t *testing.T, text, got string, n int) {
	t.Helper()
	if utf8.ValidString(text) && !utf8.ValidString(got) {
		t.Fatalf("invalid UTF-8 in %q", got)
	}
	if strings.Count(got, "<mark>") != strings.Count(got, "</mark>") {
		t.Fatalf("unbalanced marks: %q", got)
	}
	plain := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(got)
	plain = html.UnescapeString(strings.Trim(plain, "…"))
	if utf8.ValidString(text) && len(text) > n && len(plain) > n {
		t.Fatalf("window of %d bytes for n=%d", len(plain), n)
	}
	if utf8.ValidString(text) && !strings.Contains(collapse(text), plain) {
		t.Fatalf("%q is not from the text", plain)
	}
}

// BenchmarkSnippet highlights a typical passage: prose and code, a few
// query words, one of them a prefix.
func BenchmarkSnippet(b *testing.B) {
	para := "The file descriptor table of a process holds every open file; a leak " +
		"happens when a descriptor is never closed. func Open(name string) (*File, error) " +
		"{ return OpenFile(name, O_RDONLY, 0) } Mémoire allouée, échec d'allocation. "
	text := strings.Repeat(para, 12)
	stems := map[string]bool{}
	for _, w := range []string{"file", "descriptor", "leak"} {
		stems[tokens.Stem(w)] = true
	}
	prefixes := []string{"alloc"}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Snippet(text, stems, prefixes)
	}
}

// The marker's shortcuts (a word's head, ASCII case) must never lose a
// word the plain rule finds: its stem is a query stem, or it starts with a
// query prefix. "day" stems to "dai" and "sensibility" to "sensibl", so a
// shortcut on a stem's first letters alone missed them.
func TestMarkerAgreesWithStemming(t *testing.T) {
	raw, err := os.ReadFile("../enrich/words_en.txt")
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, w := range strings.Fields(string(raw)) {
		if !strings.HasPrefix(w, "#") {
			words = append(words, w, w+"s", w+"ing", w+"ed", w+"y", strings.ToUpper(w), strings.Title(w))
		}
	}
	words = append(words, "day", "Days", "ays", "ay", "sensibility", "Éclair", "éclairs", "日本語", "x1", "A")
	plain := func(w string, stems map[string]bool, prefixes []string) bool {
		f := tokens.Fold(w)
		return stems[tokens.Stem(w)] || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(f, p) })
	}
	for i, w := range words {
		stems := map[string]bool{tokens.Stem(w): true}
		prefixes := []string{tokens.Fold(words[(i*7919)%len(words)])}
		m := newMarker(stems, prefixes)
		if !m.matches(w) {
			t.Fatalf("%q does not match its own stem %q", w, tokens.Stem(w))
		}
		other := words[(i*104729+1)%len(words)]
		if got, want := m.matches(other), plain(other, stems, prefixes); got != want {
			t.Fatalf("%q against stem %q, prefix %q: %v, want %v", other, tokens.Stem(w), prefixes[0], got, want)
		}
	}
	if got := Snippet("What a day it was.", map[string]bool{tokens.Stem("day"): true}, nil); !strings.Contains(got, "<mark>day</mark>") {
		t.Fatalf("day not marked: %q", got)
	}
}
