// Command tune evaluates ranking variants in-process on an index kept by
// bench/quality (-keep DIR), without re-indexing:
//
//	go run ./bench/quality -keep /tmp/cran -modes keyword
//	go run ./bench/tune -index /tmp/cran -data ../shared/datasets/cranfield \
//	    'FeedbackTerms=0' 'FeedbackTerms=10 FeedbackDocs=5' 'FileShare=0.25'
//
// Each argument is one variant: space-separated Field=value assignments to
// search.Tuning fields (FileWeights takes five comma-separated numbers),
// applied to the defaults. It prints nDCG@10 per variant and mode.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"trove/backend/core"
	"trove/backend/embedding"
	"trove/backend/search"
	"trove/backend/store"
)

func main() {
	index := flag.String("index", "", "folder kept by bench/quality -keep")
	data := flag.String("data", "../shared/datasets/cranfield", "BEIR collection folder")
	modes := flag.String("modes", "keyword,hybrid", "modes to measure")
	flag.Parse()
	st, err := store.Open(filepath.Join(*index, "data"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	em, err := embedding.New(core.EmbeddingSettings{Provider: core.ProviderBuiltin}, os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	vecs := search.NewVectors(em.Model())
	if err := st.LoadVectors(context.Background(), vecs.Model(), vecs.Add); err != nil {
		log.Fatal(err)
	}
	queries, qrels := load(*data)
	variants := flag.Args()
	if len(variants) == 0 {
		variants = []string{""}
	}
	for _, v := range variants {
		e := &search.Engine{Store: st, Vectors: vecs, Embedder: func() embedding.Embedder { return em },
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Tuning: parse(v)}
		fmt.Printf("%-50q", v)
		for _, m := range strings.Split(*modes, ",") {
			fmt.Printf("  %s %.4f", m, ndcg(e, search.Mode(m), queries, qrels))
		}
		fmt.Println()
	}
}

func parse(v string) search.Tuning {
	t := search.DefaultTuning
	rv := reflect.ValueOf(&t).Elem()
	for _, kv := range strings.Fields(v) {
		k, val, _ := strings.Cut(kv, "=")
		f := rv.FieldByName(k)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(val == "true")
		case reflect.Int:
			n, _ := strconv.Atoi(val)
			f.SetInt(int64(n))
		case reflect.Float64:
			x, _ := strconv.ParseFloat(val, 64)
			f.SetFloat(x)
		case reflect.Array:
			for i, s := range strings.Split(val, ",") {
				x, _ := strconv.ParseFloat(s, 64)
				f.Index(i).SetFloat(x)
			}
		default:
			log.Fatalf("unknown tuning field %q", k)
		}
	}
	return t
}

type query struct{ ID, Text string }

func load(data string) ([]query, map[string]map[string]float64) {
	var qs []query
	f, err := os.Open(filepath.Join(data, "queries.jsonl"))
	if err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if json.Unmarshal(sc.Bytes(), &q) == nil {
			qs = append(qs, query{q.ID, q.Text})
		}
	}
	qrels := map[string]map[string]float64{}
	f2, err := os.Open(filepath.Join(data, "qrels.tsv"))
	if err != nil {
		log.Fatal(err)
	}
	sc = bufio.NewScanner(f2)
	sc.Scan()
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		s, _ := strconv.ParseFloat(p[2], 64)
		if qrels[p[0]] == nil {
			qrels[p[0]] = map[string]float64{}
		}
		qrels[p[0]][p[1]] = s
	}
	return qs, qrels
}

func ndcg(e *search.Engine, mode search.Mode, qs []query, qrels map[string]map[string]float64) float64 {
	total, n := 0.0, 0
	for _, q := range qs {
		rel := qrels[q.ID]
		if len(rel) == 0 {
			continue
		}
		rs, err := e.Search(context.Background(), search.Request{Query: q.Text, Limit: 10, Mode: mode})
		if err != nil {
			log.Fatal(err)
		}
		dcg := 0.0
		for i, r := range rs {
			dcg += rel[strings.TrimSuffix(r.File.Filename, ".md")] / math.Log2(float64(i)+2)
		}
		var ideal []float64
		for _, g := range rel {
			ideal = append(ideal, g)
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(ideal)))
		idcg := 0.0
		for i, g := range ideal[:min(10, len(ideal))] {
			idcg += g / math.Log2(float64(i)+2)
		}
		total += dcg / idcg
		n++
	}
	return total / float64(n)
}
