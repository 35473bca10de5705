package chunk

import (
	"strings"
	"testing"
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
	text := strings.Repeat("é", 5000)
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
