package queue

import (
	"sort"
	"time"

	"trove/backend/core"
)

// Status reports the pause state and the counts by item status.
func (q *Queue) Status() core.QueueStatus {
	now := time.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	st := core.QueueStatus{
		Paused: q.pausedLocked(), PausedManually: q.pausedManual,
		PausedByScheduler: q.sched.on, SchedulerReason: q.sched.why,
		PausedByStorage: q.storage.on, StorageReason: q.storage.why, Total: len(q.byID),
	}
	for _, it := range q.byID {
		switch it.State(now) {
		case StatusCoolingDown:
			st.CoolingDown++
		case StatusReady:
			st.Ready++
		case StatusProcessing:
			st.Processing++
		}
	}
	return st
}

// Items returns copies of the items, processing first, then by due time.
// offset and limit page through them (limit <= 0 means all).
func (q *Queue) Items(offset, limit int) (items []Item, total int) {
	q.mu.Lock()
	all := make([]Item, 0, len(q.byID))
	for _, it := range q.byID {
		all = append(all, *it)
	}
	q.mu.Unlock()
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.processing != b.processing {
			return a.processing
		}
		if !a.ReadyAt.Equal(b.ReadyAt) {
			return a.ReadyAt.Before(b.ReadyAt)
		}
		return a.ID < b.ID
	})
	total = len(all)
	offset = min(max(offset, 0), total)
	end := total
	if limit > 0 {
		end = min(offset+limit, total)
	}
	return all[offset:end], total
}

// Pending counts the items of one folder.
func (q *Queue) Pending(dirID int64) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pending[dirID]
}

// Persistent returns the items worth saving across a restart: those a
// rescan could not rediscover (moves, retries, watcher events).
func (q *Queue) Persistent() []Item {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Item
	for _, it := range q.byID {
		if it.persist {
			out = append(out, *it)
		}
	}
	return out
}
