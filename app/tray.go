package app

import (
	"context"
	_ "embed"
	"log/slog"
	"sync"
	"time"

	"fyne.io/systray"

	"trove/backend/core"
	"trove/backend/service"
)

//go:embed appicon.png
var icon []byte

// The English pause item's labels. The smoke test finds the item by these.
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
	items   trayItems
	refresh chan struct{}
}

// trayItems are the menu's items, retitled in the language of the moment.
type trayItems struct {
	status, quick, open, pause, quit *systray.MenuItem
	// saved is the saved searches' submenu: its slots show the first
	// maxTraySaved by name, the others hidden; savedIDs are theirs.
	saved    *systray.MenuItem
	slots    []*systray.MenuItem
	savedIDs []int64
}

// maxTraySaved is how many saved searches the tray offers; the window
// lists them all.
const maxTraySaved = 12

func newTray(svc *service.Service, win *window, log *slog.Logger) *tray {
	return &tray{svc: svc, win: win, log: log, refresh: make(chan struct{}, 1)}
}

// ready builds the menu; systray calls it once the item is on the bus.
func (t *tray) ready() {
	tx, _ := trayTextFor(t.svc.Settings().UI.Language)
	systray.SetIcon(icon)
	systray.SetTitle("Trove")
	systray.SetTooltip(tx.tooltip)
	status := systray.AddMenuItem(tx.starting, tx.statusTip)
	status.Disable()
	systray.AddSeparator()
	quick := systray.AddMenuItem(tx.quick, tx.quickTip)
	open := systray.AddMenuItem(tx.open, tx.openTip)
	saved := systray.AddMenuItem(tx.saved, tx.savedTip)
	slots := make([]*systray.MenuItem, maxTraySaved)
	for i := range slots {
		slots[i] = saved.AddSubMenuItem("", tx.savedTip)
		slots[i].Hide()
		go t.onSavedClick(i, slots[i].ClickedCh)
	}
	pause := systray.AddMenuItem(tx.pause, tx.pauseTip)
	systray.AddSeparator()
	quit := systray.AddMenuItem(tx.quit, tx.quitTip)

	t.mu.Lock()
	t.items = trayItems{status: status, quick: quick, open: open, pause: pause, quit: quit, saved: saved, slots: slots}
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

// onSavedClick opens the window on the saved search a slot shows, for as
// long as the menu lives (like the menu's other items).
func (t *tray) onSavedClick(slot int, clicked <-chan struct{}) {
	for range clicked {
		t.mu.Lock()
		var id int64
		if slot < len(t.items.savedIDs) {
			id = t.items.savedIDs[slot]
		}
		t.mu.Unlock()
		if id == 0 {
			continue
		}
		if err := core.Safe(func() { t.win.ShowSaved(id) }); err != nil {
			t.log.Error("tray: opening a saved search panicked", "panic", err)
		}
	}
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
	it := t.items
	t.mu.Unlock()
	if it.status == nil {
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
	// The language may have changed since the last redraw (ui.language).
	tx, tag := trayTextFor(t.svc.Settings().UI.Language)
	line := statusLine(tx, tag, st.TotalFiles, q)
	it.status.SetTitle(line)
	it.status.SetTooltip(tx.statusTip)
	it.quick.SetTitle(tx.quick)
	it.quick.SetTooltip(tx.quickTip)
	it.open.SetTitle(tx.open)
	it.open.SetTooltip(tx.openTip)
	it.pause.SetTitle(pauseLabel(tx, q))
	it.pause.SetTooltip(tx.pauseTip)
	it.quit.SetTitle(tx.quit)
	it.quit.SetTooltip(tx.quitTip)
	systray.SetTooltip("Trove: " + line)
	t.updateSaved(ctx, tx, it)
}

// updateSaved shows the saved searches in the submenu's slots.
func (t *tray) updateSaved(ctx context.Context, tx trayText, it trayItems) {
	list, err := t.svc.SavedSearches(ctx)
	if err != nil {
		if ctx.Err() == nil {
			t.log.Warn("tray: cannot list the saved searches", "err", err)
		}
		return
	}
	it.saved.SetTitle(tx.saved)
	it.saved.SetTooltip(tx.savedTip)
	if len(list) == 0 {
		it.saved.SetTooltip(tx.noSaved)
		it.saved.Disable()
	} else {
		it.saved.Enable()
	}
	ids := make([]int64, 0, len(it.slots))
	for i, slot := range it.slots {
		if i >= len(list) {
			slot.Hide()
			continue
		}
		ids = append(ids, list[i].ID)
		slot.SetTitle(list[i].Name)
		slot.SetTooltip(tx.savedTip)
		slot.Show()
	}
	t.mu.Lock()
	t.items.savedIDs = ids
	t.mu.Unlock()
}

// onEvent is fed every backend event; those that change the counts, the
// queue or the language redraw the menu.
func (t *tray) onEvent(e core.Event) {
	switch e.Type {
	case core.EventQueueStatus, core.EventFileIndexed, core.EventFileRemoved, core.EventFolderRemoved, core.EventFileFailed, core.EventSettings,
		core.EventSavedChanged:
		t.changed()
	}
}
