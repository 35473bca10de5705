package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"trove/backend/engine/embedding"
)

// rssKB reads this process's resident set size, once the garbage is
// collected and returned to the system.
func rssKB() int {
	debug.FreeOSMemory()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return -1
}

// resources measures, in this fresh process, what loading the builtin
// costs, then how fast it embeds 20 KB pieces of the collection's text.
func resources(dir string) {
	runtime.GC()
	before := rssKB()
	start, cpu0 := time.Now(), processCPU()
	b, err := embedding.NewBuiltin()
	if err != nil {
		log.Fatal(err)
	}
	loadTime, loadCPU := time.Since(start), processCPU()-cpu0
	afterLoad := rssKB()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := ms.HeapInuse / 1024
	c, err := load(dir)
	if err != nil {
		log.Fatal(err)
	}
	var pieces []string
	var sb strings.Builder
	for _, d := range c.docs {
		sb.WriteString(d.Title + "\n" + d.Text + "\n\n")
		if sb.Len() >= 20<<10 {
			pieces = append(pieces, sb.String()[:20<<10])
			sb.Reset()
		}
	}
	// Embedding everything touches every page of the table.
	base := rssKB()
	for _, p := range pieces {
		b.Vector(p)
	}
	words := 0
	for _, p := range pieces {
		words += len(strings.Fields(p))
	}
	embedded := rssKB() - base + afterLoad - before
	fmt.Printf("load: %v wall, %v CPU; resident memory: +%d kB after loading (Go heap in use %d kB), +%d kB after embedding %d texts\n",
		loadTime.Round(time.Microsecond), loadCPU, afterLoad-before, heap, embedded, len(pieces))

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Thread CPU time has a coarse clock: it is summed over all texts of a
	// round, and the best of the rounds is kept.
	measure := func(name string, fresh bool) {
		var cpu, wall []time.Duration
		for round := 0; round < 7; round++ {
			e := b
			if fresh {
				// A new builtin has an empty cache of unknown-word vectors.
				if e, err = embedding.NewBuiltinWith(embedding.BuiltinOptions{}); err != nil {
					log.Fatal(err)
				}
			}
			c0, w0 := threadCPU(), time.Now()
			for _, p := range pieces {
				e.Vector(p)
			}
			n := time.Duration(len(pieces))
			cpu = append(cpu, (threadCPU()-c0)/n)
			wall = append(wall, time.Since(w0)/n)
		}
		slices.Sort(cpu)
		slices.Sort(wall)
		fmt.Printf("embed a 20 KB text (%s; %d texts of ~%d words): CPU %v per text (best round; median %v), wall %v (best)\n",
			name, len(pieces), words/len(pieces), cpu[0].Round(time.Microsecond), cpu[len(cpu)/2].Round(time.Microsecond), wall[0].Round(time.Microsecond))
	}
	measure("unknown-word cache warm", false)
	measure("each text first seen by a fresh builtin", true)
}
