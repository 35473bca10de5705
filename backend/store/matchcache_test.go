package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// union, minus and the gallop over count keys agree with the obvious
// set operations on random lists.
func TestIDListOperations(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	list := func(n, span int) []int64 {
		seen := map[int64]bool{}
		var out []int64
		for range n {
			id := int64(r.IntN(span))
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		slices.Sort(out)
		return out
	}
	for range 500 {
		a, b := list(r.IntN(40), 60), list(r.IntN(40), 60)
		in := map[int64]bool{}
		for _, id := range b {
			in[id] = true
		}
		var wantUnion, wantMinus []int64
		wantUnion = append(wantUnion, b...)
		for _, id := range a {
			if !in[id] {
				wantUnion = append(wantUnion, id)
				wantMinus = append(wantMinus, id)
			}
		}
		slices.Sort(wantUnion)
		if got := union(a, b); !slices.Equal(got, wantUnion) {
			t.Fatalf("union(%v, %v) = %v, want %v", a, b, got, wantUnion)
		}
		if got := minus(a, b); !slices.Equal(got, wantMinus) {
			t.Fatalf("minus(%v, %v) = %v, want %v", a, b, got, wantMinus)
		}
		c := &countKeys{}
		for _, id := range b {
			c.keys = append(c.keys, countKey{id: id, size: id * 10})
		}
		at := 0
		for _, id := range a {
			k, i, ok := c.keyFrom(at, id)
			if ok != in[id] || ok && (k.ID != id || k.Size != id*10) {
				t.Fatalf("key %d of %v from %d: %+v %v", id, b, at, k, ok)
			}
			if i < at || i > len(c.keys) || i < len(c.keys) && c.keys[i].id < id {
				t.Fatalf("key %d of %v from %d: next search at %d", id, b, at, i)
			}
			at = i
		}
	}
}

// A listing's lists are kept while the index is unchanged, and a list of
// the first ids serves only listings that need no more; a committed write
// makes every list be read again.
func TestMatchListsFollowTheIndex(t *testing.T) {
	s, ids := matchCorpus(t)
	p := s.db.Load()
	got, err := s.matchingIDs(ctx, p, `"tide"`, 3)
	if err != nil || !slices.Equal(got, ids[:3]) {
		t.Fatalf("first 3: %v %v, want %v", got, err, ids[:3])
	}
	if _, ok := s.matches.get(s.now(), `"tide"`, 3); !ok {
		t.Fatal("the first ids were not kept")
	}
	if _, ok := s.matches.get(s.now(), `"tide"`, 0); ok {
		t.Fatal("the first ids served as all of them")
	}
	got, err = s.matchingIDs(ctx, p, `"tide"`, 0)
	if err != nil || !slices.Equal(got, ids) {
		t.Fatalf("all: %v %v, want %v", got, err, ids)
	}
	if cached, ok := s.matches.get(s.now(), `"tide"`, 5); !ok || !slices.Equal(cached, ids) {
		t.Fatalf("all the ids serve the first 5: %v %v", cached, ok)
	}
	id, err := s.PutDocument(ctx, doc(1, "/m/late.txt", "The tide turned late."))
	if err != nil {
		t.Fatal(err)
	}
	got, err = s.matchingIDs(ctx, p, `"tide"`, 0)
	if want := append(slices.Clone(ids), id); err != nil || !slices.Equal(got, want) {
		t.Fatalf("after a new file: %v %v, want %v", got, err, want)
	}
}

// The cache holds at most maxCachedIDs ids, forgetting the least recently
// used lists first.
func TestMatchCacheIsBounded(t *testing.T) {
	var c matchCache
	st := state{&pools{}, 1}
	quarter := make([]int64, maxCachedIDs/4)
	for _, e := range []string{"a", "b", "c", "d"} {
		c.put(st, e, &idList{ids: quarter, complete: true})
	}
	if _, ok := c.get(st, "a", 0); !ok {
		t.Fatal("a was not kept")
	}
	c.put(st, "e", &idList{ids: quarter, complete: true})
	if c.held > maxCachedIDs {
		t.Fatalf("%d ids held", c.held)
	}
	for e, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true, "e": true} {
		if _, ok := c.get(st, e, 0); ok != want {
			t.Errorf("%s kept: %v, want %v", e, ok, want)
		}
	}
	if _, ok := c.get(state{st.p, 2}, "a", 0); ok {
		t.Error("a list served another state of the index")
	}
}
