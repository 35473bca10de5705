package app

import (
	"context"

	"trove/backend/core"
	"trove/backend/service"
)

// eventName is the Wails event the frontend listens on for backend events
// (the same events, in the same JSON, as /api/updates).
const eventName = "trove:event"

// forward sends every backend event to the window and the tray until ctx
// ends. A subscriber that falls behind is dropped by the bus; then the
// window gets the current state again, as an SSE client would on reconnect.
func forward(ctx context.Context, svc *service.Service, win *window, tr *tray) {
	for ctx.Err() == nil {
		sub := svc.Subscribe(1024, nil)
		drain(ctx, sub, func(e core.Event) {
			win.Emit(eventName, e)
			tr.onEvent(e)
		})
		sub.Cancel()
		for _, e := range svc.Snapshot(ctx) {
			win.Emit(eventName, e)
		}
		tr.changed()
	}
}

// drain calls f for each event until the subscription ends or ctx ends.
func drain(ctx context.Context, sub *service.Subscription, f func(core.Event)) {
	var batch []core.Event
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Ready():
			var live bool
			batch, live = sub.Take(batch[:0])
			for _, e := range batch {
				f(e)
			}
			if !live {
				return
			}
		}
	}
}
