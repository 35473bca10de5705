package queue

import (
	"time"
)

// Action is what processing an item does.
type Action string

// Actions, as the API names them.
const (
	ActionIndex  Action = "index"  // (re)index the file at Path, or drop it if it is gone
	ActionDelete Action = "delete" // remove Path from the index
	ActionMove   Action = "move"   // Path was renamed to Dest
)

// ItemStatus is where an item is in its life.
type ItemStatus string

// Item statuses, as the API names them. An item is cooling_down until its
// cooldown expires, then ready until a worker takes it, then processing.
const (
	StatusCoolingDown ItemStatus = "cooling_down"
	StatusReady       ItemStatus = "ready"
	StatusProcessing  ItemStatus = "processing"
)

// Item is one unit of indexing work, keyed by the path it leaves indexed
// (Dest for a move, Path otherwise).
type Item struct {
	ID         string
	Path       string
	Dest       string // for moves
	Action     Action
	DirID      int64
	EnqueuedAt time.Time
	ReadyAt    time.Time // the cooldown ends here
	Retries    int
	LastError  string

	processing bool
	dirty      bool      // an event arrived while processing: run again afterwards
	holds      [2]string // the paths it keeps busy while processing
	persist    bool      // worth saving across a crash (watcher events, retries, moves)
	heapIndex  int       // in the waiting heap; -1 while processing or held back for a busy path
}

// key is the path an item is filed under.
func (it *Item) key() string {
	if it.Action == ActionMove {
		return it.Dest
	}
	return it.Path
}

// State computes the item's status at time now.
func (it *Item) State(now time.Time) ItemStatus {
	switch {
	case it.processing:
		return StatusProcessing
	case now.Before(it.ReadyAt):
		return StatusCoolingDown
	default:
		return StatusReady
	}
}

// Event is a request to (re)consider a path.
type Event struct {
	Path   string
	Dest   string // for moves
	Action Action
	DirID  int64
	// Cooldown is how long the path must stay quiet before processing: the
	// queue setting for watcher events, zero for scans.
	Cooldown time.Duration
	// Persist marks work a restart cannot rediscover by rescanning.
	Persist bool
}

// merge folds a new event into a pending item. The later event mostly
// wins, because processing looks at the disk anyway: index then delete is a
// delete, delete then index is an index, a change to a move's destination
// keeps the move (processing compares sizes and times before trusting it),
// and a move whose destination goes becomes the removal of that name (the
// queue removes the old name in an item of its own). The item keeps its
// key, so the queue finds it under the same path.
func (it *Item) merge(ev Event) {
	switch {
	case it.Action == ActionMove && ev.Action == ActionIndex:
		// keep the move; processing re-checks the destination
	case it.Action == ActionMove && ev.Action == ActionDelete:
		it.Action, it.Path, it.Dest = ActionDelete, it.Dest, ""
	default:
		it.Action, it.Dest = ev.Action, ev.Dest
		if ev.Action == ActionMove {
			it.Path = ev.Path
		}
	}
	it.persist = it.persist || ev.Persist
}
