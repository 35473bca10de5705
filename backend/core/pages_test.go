package core

import (
	"slices"
	"testing"
)

func TestPagesAt(t *testing.T) {
	p := Pages{}.Add(0, 1).Add(10, 2).Add(10, 3).Add(25, 7)
	want := Pages{{0, 1}, {10, 3}, {25, 7}}
	if !slices.Equal(p, want) {
		t.Fatalf("Add: got %v, want %v (an empty page is replaced by the next)", p, want)
	}
	for off, page := range map[int]int{0: 1, 9: 1, 10: 3, 24: 3, 25: 7, 1000: 7} {
		if got := p.At(off); got != page {
			t.Errorf("At(%d) = %d, want %d", off, got, page)
		}
	}
	if got := (Pages{{5, 2}}).At(4); got != 0 {
		t.Errorf("before the first page: %d, want 0", got)
	}
	if got := Pages(nil).At(3); got != 0 {
		t.Errorf("no pages: %d, want 0", got)
	}
}

func TestPagesSlice(t *testing.T) {
	p := Pages{{0, 1}, {10, 2}, {20, 3}}
	if got, want := p.Slice(12, 30), (Pages{{0, 2}, {8, 3}}); !slices.Equal(got, want) {
		t.Errorf("Slice(12, 30) = %v, want %v", got, want)
	}
	if got, want := p.Slice(10, 20), (Pages{{0, 2}}); !slices.Equal(got, want) {
		t.Errorf("Slice(10, 20) = %v, want %v", got, want)
	}
	if got := Pages(nil).Slice(0, 5); got != nil {
		t.Errorf("no pages sliced: %v", got)
	}
}

func TestPagesText(t *testing.T) {
	p := Pages{{0, 3}, {1210, 4}, {1300, 12}}
	s := p.String()
	if s != "3@0 4@1210 12@1300" {
		t.Fatalf("String = %q", s)
	}
	if got := ParsePages(s); !slices.Equal(got, p) {
		t.Errorf("ParsePages(%q) = %v", s, got)
	}
	// What cannot be read is left out, never a failure.
	if got, want := ParsePages("x 2@5 0@9 3@4 4@abc 5@20"), (Pages{{5, 2}, {20, 5}}); !slices.Equal(got, want) {
		t.Errorf("ParsePages of damaged text = %v, want %v", got, want)
	}
}
