package app

import (
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"fyne.io/systray"

	"trove/backend/core"
	"trove/backend/service"
)

//go:embed appicon.png
var icon []byte

// Menu labels. The smoke test finds the pause item by these.
const (
	labelPause  = "Pause indexing"
	labelResume = "Resume indexing"
)

// tray is the status-notifier item (fyne.io/systray speaks the
// StatusNotifierItem and dbusmenu D-Bus protocols; no GTK needed, so it runs
// beside Wails' own loop).
type tray struct {
	svc *service.Service
	win *window
	log *slog.Logger

	mu      sync.Mutex
	status  *systray.MenuItem
	pause   *systray.MenuItem
	refresh chan struct{}
}

func newTray(svc *service.Service, win *window, log *slog.Logger) *tray {
	return &tray{svc: svc, win: win, log: log, refresh: make(chan struct{}, 1)}
}

// ready builds the menu; systray calls it once the item is on the bus.
func (t *tray) ready() {
	systray.SetIcon(icon)
	systray.SetTitle("Trove")
	systray.SetTooltip("Trove: search your files")
	status := systray.AddMenuItem("Starting…", "What Trove is doing")
	status.Disable()
	systray.AddSeparator()
	quick := systray.AddMenuItem("Quick search", "Search your files from a small window")
	open := systray.AddMenuItem("Open Trove", "Folders, activity and settings")
	pause := systray.AddMenuItem(labelPause, "Stop or restart indexing")
	systray.AddSeparator()
	quit := systray.AddMenuItem("Quit", "Stop Trove, its index and its API")

	t.mu.Lock()
	t.status, t.pause = status, pause
	t.mu.Unlock()
	t.update(context.Background())

	go func() {
		for {
			select {
			case <-quick.ClickedCh:
				t.win.ShowQuick("")
			case <-open.ClickedCh:
				t.win.ShowMain()
			case <-pause.ClickedCh:
				t.togglePause()
			case <-quit.ClickedCh:
				t.win.Quit()
				return
			}
		}
	}()
}

func (t *tray) togglePause() {
	if t.svc.QueueStatus().PausedManually {
		t.svc.ResumeQueue()
	} else {
		t.svc.PauseQueue()
	}
	t.changed()
}

// changed asks for the status line to be redrawn (coalesced).
func (t *tray) changed() {
	select {
	case t.refresh <- struct{}{}:
	default:
	}
}

// redrawEvery spaces the menu's redraws: a scan that indexes hundreds of
// files a second must not flood the bus.
const redrawEvery = 500 * time.Millisecond

// run redraws the menu when asked, at most once per redrawEvery, and sleeps
// while nothing changes (no timer wakes an idle desktop).
func (t *tray) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.refresh:
		}
		t.update(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(redrawEvery):
		}
	}
}

func (t *tray) update(ctx context.Context) {
	t.mu.Lock()
	status, pause := t.status, t.pause
	t.mu.Unlock()
	if status == nil {
		return // the menu is not built yet
	}
	q := t.svc.QueueStatus()
	st, err := t.svc.FileStats(ctx)
	if err != nil {
		if ctx.Err() == nil {
			t.log.Warn("tray: cannot count the indexed files", "err", err)
		}
		return
	}
	line := statusLine(st.TotalFiles, q)
	status.SetTitle(line)
	pause.SetTitle(pauseLabel(q))
	systray.SetTooltip("Trove: " + line)
}

// onEvent is fed every backend event; those that change the counts or the
// queue redraw the menu.
func (t *tray) onEvent(e core.Event) {
	switch e.Type {
	case core.EventQueueStatus, core.EventFileIndexed, core.EventFileRemoved, core.EventFolderRemoved, core.EventFileFailed:
		t.changed()
	}
}

// statusLine is the tray's first line: "12,408 files indexed · 3 queued".
func statusLine(files int64, q core.QueueStatus) string {
	line := fmt.Sprintf("%s %s indexed", thousands(files), plural(files, "file", "files"))
	switch {
	case q.Total > 0:
		line += fmt.Sprintf(" · %s queued", thousands(int64(q.Total)))
	default:
		line += " · up to date"
	}
	switch {
	case q.PausedManually:
		line += " · paused"
	case q.PausedByScheduler:
		line += " · held by schedule"
	}
	return line
}

// pauseLabel follows the manual pause: a scheduler hold is not the person's
// to undo from here.
func pauseLabel(q core.QueueStatus) string {
	if q.PausedManually {
		return labelResume
	}
	return labelPause
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// thousands writes n with comma separators: 12408 -> "12,408".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
