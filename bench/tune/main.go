// Command tune evaluates ranking variants in-process on indexes kept by
// bench/quality (-keep DIR) and bench/knownitem (its -work folder), without
// indexing again:
//
//	go run ./bench/quality -keep /var/tmp/q
//	go run ./bench/tune -quality /var/tmp/q [-knownitem /var/tmp/trove-knownitem] \
//	    'FeedbackTerms=0' 'K1=0.9 text.b=0.4' 'NameWeight=0.5'
//
// Each argument is one variant: space-separated Field=value assignments to
// search.Tuning fields, applied to the defaults; a field's BM25F knobs are
// FIELD.w and FIELD.b (text, name, folders, title, keywords, summary). For
// each variant it prints, per collection, the hybrid and keyword nDCG@10
// ratio to the FTS5 baseline on the odd queries (choose on these) and on
// the even ones (report these), and the known-item MRR@10 per kind.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/search"
	"trove/backend/store"
	"trove/bench/internal/fts5base"
	"trove/bench/internal/harness"
	"trove/bench/internal/ir"
)

func main() {
	qdir := flag.String("quality", "", "folder kept by bench/quality -keep")
	kdir := flag.String("knownitem", "", "work folder of bench/knownitem")
	datasets := flag.String("datasets", filepath.Join(ir.SharedDir(), "datasets"), "folder of BEIR collections")
	modes := flag.String("modes", "keyword,hybrid", "modes to measure on the collections")
	only := flag.String("only", "", "comma-separated collection names (default: all kept)")
	long := flag.Int("long", 0, "with -knownitem: also time a query of this many characters (the known-item queries repeated), in process")
	longOnly := flag.Bool("longonly", false, "with -long: skip the known-item queries")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the variants' searches here")
	flag.Parse()
	em, err := embedding.New(core.EmbeddingSettings{Provider: core.ProviderBuiltin}, os.Getenv)
	harness.Check(err)
	var colls []*collection
	if *qdir != "" {
		dirs, err := ir.Collections(*datasets)
		harness.Check(err)
		for _, d := range dirs {
			c, err := ir.Load(d)
			harness.Check(err)
			if *only != "" && !slices.Contains(strings.Split(*only, ","), c.Name) {
				continue
			}
			if _, err := os.Stat(filepath.Join(*qdir, c.Name, "data")); err != nil {
				continue
			}
			colls = append(colls, openCollection(c, filepath.Join(*qdir, c.Name), em))
		}
	}
	var ki *knownItems
	if *kdir != "" {
		ki = openKnownItems(*kdir, em)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		harness.Check(err)
		harness.Check(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	variants := flag.Args()
	if len(variants) == 0 {
		variants = []string{""}
	}
	for _, v := range variants {
		t := parse(v)
		fmt.Printf("%q\n", v)
		var sumOdd, sumEven float64
		for _, c := range colls {
			fmt.Printf("  %-10s", c.c.Name)
			for _, m := range strings.Split(*modes, ",") {
				nd := c.ndcg(t, search.Mode(m))
				odd := ir.Mean(ir.Half(nd, true)) / ir.Mean(ir.Half(c.base, true))
				even := ir.Mean(ir.Half(nd, false)) / ir.Mean(ir.Half(c.base, false))
				fmt.Printf("  %s %.4f odd %.3f even %.3f", m, ir.Mean(nd), odd, even)
				if m == "hybrid" {
					sumOdd += odd
					sumEven += even
				}
			}
			fmt.Println()
		}
		if len(colls) > 0 {
			fmt.Printf("  mean hybrid ratio odd %.3f even %.3f\n", sumOdd/float64(len(colls)), sumEven/float64(len(colls)))
		}
		if ki != nil {
			if !*longOnly {
				ki.report(t)
			}
			if *long > 0 {
				ki.long(t, *long)
			}
		}
	}
}

// openIndex opens the kept Trove index of a collection.
func openIndex(dir string) *store.Store {
	st, err := store.Open(filepath.Join(dir, "data"))
	harness.Check(err)
	return st
}

func engine(st *store.Store, em embedding.Embedder) *search.Engine {
	vecs := search.NewVectors(em.Model())
	harness.Check(st.LoadVectors(context.Background(), vecs.Model(), vecs.Add))
	return &search.Engine{Store: st, Vectors: vecs, Embedder: func() embedding.Embedder { return em },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// collection is a test collection with its kept index and baseline run.
type collection struct {
	c    *ir.Collection
	e    *search.Engine
	base []float64 // FTS5 nDCG@10 per query
}

func openCollection(c *ir.Collection, dir string, em embedding.Embedder) *collection {
	var docs []fts5base.Doc
	for _, d := range c.Docs {
		docs = append(docs, fts5base.Doc{ID: d.ID, Title: d.Title, Body: d.Text})
	}
	tmp, err := os.MkdirTemp("", "tune-")
	harness.Check(err)
	defer os.RemoveAll(tmp)
	ix, err := fts5base.Build(tmp, docs)
	harness.Check(err)
	defer ix.Close()
	out := &collection{c: c, e: engine(openIndex(dir), em)}
	for _, q := range c.Queries {
		ranked, err := ix.Search(q.Text, 100)
		harness.Check(err)
		out.base = append(out.base, ir.NDCG(ranked, c.Qrels[q.ID], 10))
	}
	return out
}

func (c *collection) ndcg(t search.Tuning, mode search.Mode) []float64 {
	c.e.Tuning = &t
	var out []float64
	for _, q := range c.c.Queries {
		rs, err := c.e.Search(context.Background(), search.Request{Query: q.Text, Limit: 10, Mode: mode})
		harness.Check(err)
		ranked := make([]string, len(rs))
		for i, r := range rs {
			ranked[i] = strings.TrimSuffix(r.File.Filename, ".md")
		}
		out = append(out, ir.NDCG(ranked, c.c.Qrels[q.ID], 10))
	}
	return out
}

// knownItems are bench/knownitem's queries over its kept Trove index.
type knownItems struct {
	e      *search.Engine
	corpus string
	items  []struct {
		Kind, Query, Target string
		Equals              []string
	}
}

func openKnownItems(dir string, em embedding.Embedder) *knownItems {
	st := openIndex(filepath.Join(dir, "trove"))
	k := &knownItems{e: engine(st, em)}
	b, err := os.ReadFile(filepath.Join(dir, "queries.json"))
	harness.Check(err)
	harness.Check(json.Unmarshal(b, &k.items))
	dirs, err := st.Directories(context.Background())
	harness.Check(err)
	if len(dirs) != 1 {
		log.Fatalf("known-item index: %d watched folders, want 1", len(dirs))
	}
	k.corpus = dirs[0].Path
	return k
}

func (k *knownItems) report(t search.Tuning) {
	k.e.Tuning = &t
	for _, mode := range []search.Mode{search.Hybrid, search.Keyword} {
		rr := map[string][]float64{} // kind -> reciprocal ranks, in item order
		for _, it := range k.items {
			rs, err := k.e.Search(context.Background(), search.Request{Query: it.Query, Limit: 10, Mode: mode})
			harness.Check(err)
			x := 0.0
			for r, res := range rs {
				rel, _ := filepath.Rel(k.corpus, res.File.Path)
				if rel == it.Target || slices.Contains(it.Equals, rel) {
					x = 1 / float64(r+1)
					break
				}
			}
			rr[it.Kind] = append(rr[it.Kind], x)
			rr["all"] = append(rr["all"], x)
		}
		kinds := make([]string, 0, len(rr))
		for kind := range rr {
			kinds = append(kinds, kind)
		}
		sort.Strings(kinds)
		fmt.Printf("  known-item %-8s MRR@10 odd/even:", mode)
		for _, kind := range kinds {
			fmt.Printf("  %s %.3f/%.3f", kind, ir.Mean(ir.Half(rr[kind], true)), ir.Mean(ir.Half(rr[kind], false)))
		}
		fmt.Println()
	}
}

// long times a query of n characters made of the known-item queries,
// in process (the API's length check aside), five times per mode.
func (k *knownItems) long(t search.Tuning, n int) {
	k.e.Tuning = &t
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < n; i++ {
		b.WriteString(k.items[i%len(k.items)].Query + " ")
	}
	q := string([]rune(b.String())[:n])
	for _, mode := range []search.Mode{search.Hybrid, search.Keyword} {
		var times []float64
		var got int
		for range 5 {
			t0 := time.Now()
			rs, err := k.e.Search(context.Background(), search.Request{Query: q, Limit: 50, Mode: mode})
			harness.Check(err)
			times = append(times, float64(time.Since(t0).Microseconds())/1000)
			got = len(rs)
		}
		sort.Float64s(times)
		fmt.Printf("  %d-character query, %s: %d results, median %.0f ms, max %.0f ms\n", n, mode, got, times[2], times[4])
	}
}

// parse applies "Field=value ..." to the default tuning.
func parse(v string) search.Tuning {
	t := search.DefaultTuning
	rv := reflect.ValueOf(&t).Elem()
	fields := map[string]int{"text": 0, "name": 1, "folders": 2, "title": 3, "keywords": 4, "summary": 5}
	for _, kv := range strings.Fields(v) {
		k, val, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(val, 64)
		if f, knob, ok := strings.Cut(k, "."); ok {
			i, known := fields[f]
			if !known || err != nil {
				log.Fatalf("bad field knob %q", kv)
			}
			switch knob {
			case "w":
				t.Fields[i].Weight = x
			case "b":
				t.Fields[i].B = x
			default:
				log.Fatalf("bad field knob %q", kv)
			}
			continue
		}
		f := rv.FieldByName(k)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(val == "true")
		case reflect.Int:
			f.SetInt(int64(x))
		case reflect.Float64:
			f.SetFloat(x)
		default:
			log.Fatalf("unknown tuning field %q", k)
		}
	}
	return t
}
