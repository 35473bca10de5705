package main

import (
	"fmt"
	"os"
	"time"

	"trove/bench/internal/harness"
	"trove/bench/internal/troveproc"
)

// This machine's speed drifts by a third from one minute to the next, so
// two runs of this benchmark, one per build, compare the minutes as much as
// the builds. With -against REV a second server, built from that revision
// and keeping its own index, answers the same queries alternately with
// this checkout's (each query to one then the other, the order swapped each
// round), and the ratios come from one stretch of time.

// buildAt compiles the trove binary of git revision rev into dir.
func buildAt(rev, dir string) string {
	bin, err := troveproc.BuildAt(rev, dir)
	harness.Check(err)
	return bin
}

// startIndexed starts bin on work and waits until corpus is indexed and
// checked.
func startIndexed(bin, work, corpus string) *troveproc.Server {
	srv, err := troveproc.Start(bin, work)
	harness.Check(err)
	harness.Check(srv.Indexed(corpus, 2*time.Hour))
	harness.Check(srv.Checked(10 * time.Minute))
	return srv
}

// against times this checkout's server (api) and one built from rev,
// alternately, and prints both and their ratios.
func against(api client, rev, work, corpus string, queries []string, reps int) {
	dir, err := os.MkdirTemp("", "trove-against-")
	harness.Check(err)
	defer os.RemoveAll(dir)
	base := client{startIndexed(buildAt(rev, dir), work, corpus)}
	defer base.Stop()
	base.round(queries, "hybrid") // warm caches, as for this checkout
	now, then := map[string][]time.Duration{}, map[string][]time.Duration{}
	var allNow, allThen []time.Duration
	for r := range reps {
		for _, q := range queries {
			one := []string{q}
			var a, b time.Duration
			if r%2 == 0 {
				a = api.round(one, "hybrid")[0]
				b = base.round(one, "hybrid")[0]
			} else {
				b = base.round(one, "hybrid")[0]
				a = api.round(one, "hybrid")[0]
			}
			now[q], then[q] = append(now[q], a), append(then[q], b)
			allNow, allThen = append(allNow, a), append(allThen, b)
		}
	}
	fmt.Printf("\nhybrid, alternating with %s (its index in %s)\n", rev, work)
	fmt.Printf("%-36s %8s %8s %8s %8s %7s %7s\n", "", "p50 ms", "p95 ms", "base p50", "base p95", "p50 x", "p95 x")
	line := func(label string, a, b []time.Duration) {
		a50, a95 := ms(harness.Percentile(a, 50)), ms(harness.Percentile(a, 95))
		b50, b95 := ms(harness.Percentile(b, 50)), ms(harness.Percentile(b, 95))
		fmt.Printf("%-36s %8.1f %8.1f %8.1f %8.1f %7.2f %7.2f\n", label, a50, a95, b50, b95, a50/b50, a95/b95)
	}
	line("all queries", allNow, allThen)
	for _, q := range queries {
		line(q, now[q], then[q])
	}
}
