package indexer

import (
	"time"

	"trove/backend/core"
)

// meterWindow is how far back a pass's rate looks: long enough to smooth
// a run of large files, short enough to follow a change of pace.
const meterWindow = 30 * time.Second

// meter measures a pass's pace from a running count of files done,
// sampled at most once a second.
type meter struct {
	samples [32]sample
	n, next int
}

type sample struct {
	at   time.Time
	done int64
}

// observe records the running count now.
func (m *meter) observe(done int64) { m.observeAt(time.Now(), done) }

func (m *meter) observeAt(now time.Time, done int64) {
	if m.n > 0 {
		last := m.samples[(m.next+len(m.samples)-1)%len(m.samples)]
		if now.Sub(last.at) < time.Second {
			m.samples[(m.next+len(m.samples)-1)%len(m.samples)].done = done
			return
		}
	}
	m.samples[m.next] = sample{now, done}
	m.next = (m.next + 1) % len(m.samples)
	m.n = min(m.n+1, len(m.samples))
}

// rate is files a second over the last meterWindow up to now; 0 when
// fewer than two samples fall in it, or the last is stale (the pass
// stopped: its old pace says nothing of the next).
func (m *meter) rate(now time.Time) float64 {
	if m.n < 2 {
		return 0
	}
	last := m.samples[(m.next+len(m.samples)-1)%len(m.samples)]
	if now.Sub(last.at) > meterWindow {
		return 0
	}
	first := last
	for i := 2; i <= m.n; i++ {
		s := m.samples[(m.next+len(m.samples)-i)%len(m.samples)]
		if last.at.Sub(s.at) > meterWindow {
			break
		}
		first = s
	}
	dt := now.Sub(first.at).Seconds()
	if dt <= 0 || last.done <= first.done {
		return 0
	}
	return float64(last.done-first.done) / dt
}

// eta is how long the rest takes at rate; -1 when that cannot be told.
func eta(left int64, rate float64) time.Duration {
	switch {
	case left <= 0:
		return 0
	case rate <= 0:
		return -1
	}
	return time.Duration(float64(left) / rate * float64(time.Second)).Round(time.Second)
}

// contentDone counts one file of the content pass handled (read, failed,
// or found unchanged) into its folder's pace.
func (ix *Indexer) contentDone(id int64) {
	ix.mu.Lock()
	if f, ok := ix.folders[id]; ok {
		f.contentHandled++
		f.content.observe(f.contentHandled)
	}
	ix.mu.Unlock()
}

// progress is a folder's two passes, from its counts and its live state.
func (ix *Indexer) progress(d core.WatchedDirectory, f *folder, paused bool, now time.Time) core.FolderProgress {
	records := d.IndexedCount + d.FailedCount + d.PendingCount + d.NamedCount
	names := core.PassProgress{State: core.PassDone, Done: records, Total: max(d.FileCount, records), ETA: 0,
		Rate: f.names.rate(now)}
	if f.counting {
		names.State, names.Total, names.ETA = core.PassCounting, -1, -1
		if d.LastScan != nil && d.FileCount > 0 {
			// A rescan: the last count is the best guess there is.
			names.Total = d.FileCount
			names.ETA = eta(d.FileCount-records, names.Rate)
		}
	}
	content := core.PassProgress{State: core.PassOff, Total: 0, ETA: 0}
	if !d.NamesOnly {
		done := d.IndexedCount + d.FailedCount
		content = core.PassProgress{State: core.PassDone, Done: done, Total: done + d.PendingCount, Rate: f.content.rate(now)}
		content.ETA = eta(d.PendingCount, content.Rate)
		switch {
		case d.PendingCount == 0 && f.status != core.DirIndexing:
		case f.offline || paused:
			content.State, content.ETA = core.PassPaused, -1
		case d.PendingCount > 0 || f.status == core.DirIndexing:
			content.State = core.PassRunning
		}
	}
	return core.FolderProgress{Names: names, Content: content}
}
