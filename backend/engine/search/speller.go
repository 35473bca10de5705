package search

import (
	"context"
	"sync"
	"time"

	"trove/backend/core"
)

// Words is the index's vocabulary as the speller reads it: the words with
// their file counts, and the counts that say when to read them again.
type Words interface {
	DocCount() int
	Changes() int64
	Vocabulary(ctx context.Context, cards bool, minFiles int, fn func(term string, files int)) error
}

// speller holds the index's words in memory for spelling correction: the
// full-text vocabulary answers one word at a time, at a cost per word and
// per segment that hundreds of candidate words per typo would turn into a
// slow query. The first keyword search starts reading the list in the
// background (a query that needs it before it is ready waits at most
// firstSpellWait), and a later one reads it again, while the old one
// serves, once files numbering a quarter of the index have been added,
// changed or removed since (a rebuild removes them all).
type speller struct {
	mu      sync.Mutex
	words   map[string]int32 // stem -> files holding it (text, or names and cards)
	docs    int              // index size when read
	changes int64            // the store's count of file changes when read
	loading chan struct{}    // closed when a read ends; nil when none runs
}

// firstSpellWait bounds how long the first query needing corrections waits
// for the word list.
var firstSpellWait = 2 * time.Second

// minSpellFiles picks the words worth a correction: in the text, those at
// least two files hold (a word in one file is as likely a typo itself); in
// names, folders, titles, keywords and summaries, all.
const minSpellFiles = 2

// refresh starts reading the word list in the background when there is
// none or it is stale; every keyword search calls it, so the list is
// usually ready before the first misspelt word.
func (sp *speller) refresh(st Words, log func(error)) chan struct{} {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	stale := sp.words == nil || st.Changes()-sp.changes > int64(sp.docs/4+100)
	if stale && sp.loading == nil {
		sp.loading = make(chan struct{})
		go sp.load(st, log, sp.loading)
	}
	return sp.loading
}

// known returns the words of stems the index holds, with their file
// counts; nil when the list is not ready.
func (sp *speller) known(ctx context.Context, st Words, log func(error), stems []string) map[string]int {
	loading := sp.refresh(st, log)
	sp.mu.Lock()
	words := sp.words
	sp.mu.Unlock()
	if words == nil && loading != nil {
		select {
		case <-loading:
		case <-ctx.Done():
		case <-time.After(firstSpellWait):
		}
		sp.mu.Lock()
		words = sp.words
		sp.mu.Unlock()
	}
	if words == nil {
		return nil
	}
	out := map[string]int{}
	for _, s := range stems {
		if n, ok := words[s]; ok {
			out[s] = int(n)
		}
	}
	return out
}

func (sp *speller) load(st Words, log func(error), done chan struct{}) {
	defer close(done)
	err := core.Safe(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		docs, changes := st.DocCount(), st.Changes()
		words := map[string]int32{}
		add := func(term string, n int) { words[term] = max(words[term], int32(n)) }
		if err := st.Vocabulary(ctx, false, minSpellFiles, add); err != nil {
			log(err)
			return
		}
		if err := st.Vocabulary(ctx, true, 1, add); err != nil {
			log(err)
			return
		}
		sp.mu.Lock()
		sp.words, sp.docs, sp.changes = words, docs, changes
		sp.mu.Unlock()
	})
	if err != nil {
		log(err)
	}
	sp.mu.Lock()
	sp.loading = nil
	sp.mu.Unlock()
}
