package chunk

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestShortTextIsOnePassage(t *testing.T) {
	if got := Split("  hello world \n"); len(got) != 1 || got[0] != "hello world" {
		t.Fatalf("%q", got)
	}
	if got := Split(" \n\t "); len(got) != 0 {
		t.Fatalf("blank text gave %q", got)
	}
}

func TestCutsAtParagraphsThenSentences(t *testing.T) {
	para := strings.Repeat("The roof leaked again. ", 50) // ~1150 bytes
	text := para + "\n\n" + para + "\n\n" + para
	got := Split(text)
	if len(got) < 2 {
		t.Fatalf("want several passages, got %d", len(got))
	}
	for i, p := range got {
		if len(p) > 2*Target {
			t.Errorf("passage %d is %d bytes", i, len(p))
		}
		if !strings.HasSuffix(p, ".") {
			t.Errorf("passage %d does not end at a sentence: %q", i, p[len(p)-20:])
		}
	}
	if strings.Join(strings.Fields(strings.Join(got, " ")), " ") != strings.Join(strings.Fields(text), " ") {
		t.Fatal("passages lost or duplicated text")
	}
}

func TestNoSpacesKeepsRunesWhole(t *testing.T) {
	// The forced cut falls on a rune's start, then inside a three-byte rune
	// (two bytes back from its start).
	for _, text := range []string{strings.Repeat("é", 5000), "a" + strings.Repeat("€", 3000)} {
		got := Split(text)
		total := 0
		for _, p := range got {
			if !utf8.ValidString(p) {
				t.Fatal("cut inside a rune")
			}
			total += len(p)
		}
		if total != len(text) {
			t.Fatalf("lost bytes: %d of %d", total, len(text))
		}
	}
}

// A long run of bytes that start no rune (not UTF-8) is still cut, at the
// forced length; looking back for a rune's start once cut nothing, forever.
func TestInvalidUTF8IsCutAtTheLimit(t *testing.T) {
	done := make(chan []string, 1)
	go func() { done <- Split("ס" + strings.Repeat("\xb2", 4*Target)) }()
	select {
	case got := <-done:
		if len(got) < 2 || len(got[0]) != 2*Target {
			t.Fatalf("got %d passages, the first of %d bytes", len(got), len(got[0]))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Split did not return")
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("a. b. c.\n\nd")
	f.Add(strings.Repeat("word ", 1000))
	f.Fuzz(func(t *testing.T, text string) {
		got := Split(text)
		// A run without spaces longer than a passage is cut inside, so
		// compare the text without its spacing: nothing lost, duplicated
		// or reordered.
		if strings.Join(strings.Fields(strings.Join(got, "")), "") != strings.Join(strings.Fields(text), "") {
			t.Fatal("text changed")
		}
		for _, p := range got {
			if p == "" || len(p) > 2*Target {
				t.Fatalf("bad passage length %d", len(p))
			}
		}
	})
}

// TestSpansPlacePassages: each passage is the text at its span, so what
// is known of a place in the text (its page) is known of the passage.
func TestSpansPlacePassages(t *testing.T) {
	para := strings.Repeat("The roof leaked again. ", 50)
	text := "\n  " + para + "\n\n\f" + para + "\n\n" + para + "  \n"
	spans, passages := Spans(text), Split(text)
	if len(spans) != len(passages) || len(spans) < 2 {
		t.Fatalf("%d spans for %d passages", len(spans), len(passages))
	}
	for i, sp := range spans {
		if text[sp.Start:sp.End] != passages[i] {
			t.Errorf("span %d %v is %q, passage %q", i, sp, text[sp.Start:sp.End], passages[i])
		}
		if i > 0 && sp.Start < spans[i-1].End {
			t.Errorf("span %d overlaps the one before", i)
		}
	}
	if spans[0].Start != 3 {
		t.Errorf("the first passage starts at %d, after the leading spaces (3)", spans[0].Start)
	}
}
