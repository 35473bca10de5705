package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"trove/backend/core"
	"trove/backend/engine/scan"
	"trove/backend/store"
)

// SavedIndex is the part of the store that keeps saved searches, and what
// their notifications read of the files.
type SavedIndex interface {
	SavedSearches(ctx context.Context) ([]core.SavedSearch, error)
	CountSavedSearches(ctx context.Context) (int, error)
	SavedSearch(ctx context.Context, id int64) (core.SavedSearch, error)
	AddSavedSearch(ctx context.Context, ss core.SavedSearch) (core.SavedSearch, error)
	UpdateSavedSearch(ctx context.Context, ss core.SavedSearch) error
	DeleteSavedSearch(ctx context.Context, id int64) error
	SawFiles(ctx context.Context, id, upTo int64) error
	LastFileID(ctx context.Context) (int64, error)
	SettledThrough(ctx context.Context, after int64) (int64, error)
}

// MaxSavedName is the longest name of a saved search, in characters.
const MaxSavedName = 100

// MaxSaved is the most saved searches Trove keeps: each that notifies is
// run as files are indexed, and any local program may save searches.
const MaxSaved = 1000

// SavedPage is the page of a saved search's results asked for: a search
// request's offset and limit (nil: the search's defaults).
type SavedPage struct{ Offset, Limit *int }

// SavedBuilder turns a saved search's request into a search, checked as
// the search endpoint checks its body. The shells' decoding provides it
// (views.BuildSaved), so a saved search never holds a request the search
// endpoint would refuse, and the rule lives in one place.
type SavedBuilder func(core.SavedRequest, SavedPage) (PageRequest, error)

// SavedChange is a change of a saved search: each field given replaces
// its own (the request as a whole).
type SavedChange struct {
	Name    *string
	Request *core.SavedRequest
	Notify  *bool
}

// Checks for notifications wait this long after the indexing that
// prompted them, so a folder of new files makes one check, not one each.
const defaultSavedSettle = 2 * time.Second

// savedSample is how many of the new matching files an event names.
const savedSample = 5

// SavedSearches lists the saved searches by name.
func (s *Service) SavedSearches(ctx context.Context) ([]core.SavedSearch, error) {
	list, err := s.store.SavedSearches(ctx)
	return list, s.indexErr(err)
}

// SavedSearch returns one saved search.
func (s *Service) SavedSearch(ctx context.Context, id int64) (core.SavedSearch, error) {
	ss, err := s.store.SavedSearch(ctx, id)
	return ss, s.indexErr(err)
}

// SaveSearch keeps a search request under a name (trimmed; unique in any
// case). The request is checked as a search's; with notify, files added
// from now on that match it are announced (saved.matched).
func (s *Service) SaveSearch(ctx context.Context, name string, req core.SavedRequest, notify bool) (core.SavedSearch, error) {
	name, err := savedName(name)
	if err != nil {
		return core.SavedSearch{}, err
	}
	if _, err := s.buildSaved(req, SavedPage{}); err != nil {
		return core.SavedSearch{}, err
	}
	if n, err := s.store.CountSavedSearches(ctx); err != nil || n >= MaxSaved {
		if err == nil {
			err = core.Fail(core.TooManySaved, "Trove keeps at most %d saved searches: delete one to save another", MaxSaved)
		}
		return core.SavedSearch{}, s.indexErr(err)
	}
	seen, err := s.store.LastFileID(ctx)
	if err != nil {
		return core.SavedSearch{}, s.indexErr(err)
	}
	now := s.now()
	ss, err := s.store.AddSavedSearch(ctx, core.SavedSearch{Name: name, Request: req, Notify: notify, Created: now, Updated: now, SeenFileID: seen})
	if err != nil {
		return ss, s.savedWriteErr(err, name)
	}
	s.bus.Publish(core.SavedChanged{ID: ss.ID, Name: ss.Name})
	return ss, nil
}

// ChangeSavedSearch renames a saved search, replaces its request or turns
// its notifications on or off. A new request, or notifications turned on,
// start from the files there are: those already indexed are not new to it.
func (s *Service) ChangeSavedSearch(ctx context.Context, id int64, ch SavedChange) (core.SavedSearch, error) {
	if ch.Name == nil && ch.Request == nil && ch.Notify == nil {
		return core.SavedSearch{}, core.Fail(core.EmptyUpdate, "nothing to change: give name, notify, or query with the rest of the search")
	}
	ss, err := s.SavedSearch(ctx, id)
	if err != nil {
		return ss, err
	}
	if ch.Name != nil {
		if ss.Name, err = savedName(*ch.Name); err != nil {
			return ss, err
		}
	}
	restart := false
	if ch.Request != nil {
		if _, err := s.buildSaved(*ch.Request, SavedPage{}); err != nil {
			return ss, err
		}
		restart = *ch.Request != ss.Request
		ss.Request = *ch.Request
	}
	if ch.Notify != nil {
		restart = restart || *ch.Notify && !ss.Notify
		ss.Notify = *ch.Notify
	}
	if restart {
		if ss.SeenFileID, err = s.store.LastFileID(ctx); err != nil {
			return ss, s.indexErr(err)
		}
	}
	ss.Updated = s.now()
	if err := s.store.UpdateSavedSearch(ctx, ss); err != nil {
		return ss, s.savedWriteErr(err, ss.Name)
	}
	s.bus.Publish(core.SavedChanged{ID: ss.ID, Name: ss.Name})
	return ss, nil
}

// DeleteSavedSearch forgets a saved search.
func (s *Service) DeleteSavedSearch(ctx context.Context, id int64) error {
	ss, err := s.SavedSearch(ctx, id)
	if err != nil {
		return err
	}
	if err := s.store.DeleteSavedSearch(ctx, id); err != nil {
		return s.savedWriteErr(err, ss.Name)
	}
	s.bus.Publish(core.SavedChanged{ID: id, Name: ss.Name, Deleted: true})
	return nil
}

// RunSavedSearch runs a saved search as POST /api/search/ would run its
// request, for one page of results. A saved search that no longer runs
// as saved (its folder is no longer watched) fails with the search's
// error, its message naming the saved search.
func (s *Service) RunSavedSearch(ctx context.Context, id int64, page SavedPage) (core.SavedSearch, PageRequest, PageAnswer, error) {
	ss, err := s.SavedSearch(ctx, id)
	if err != nil {
		return ss, PageRequest{}, PageAnswer{}, err
	}
	pr, err := s.savedRequest(ss, page, s.watchedOnce(ctx))
	if err != nil {
		return ss, pr, PageAnswer{}, err
	}
	ans, err := s.SearchPage(ctx, pr)
	if errors.Is(err, core.ErrInvalid) {
		err = stale(ss, err)
	}
	return ss, pr, ans, err
}

// SavedProblems says, for each saved search, why it no longer runs as
// saved, or "".
func (s *Service) SavedProblems(ctx context.Context, list ...core.SavedSearch) []string {
	dirs := s.watchedOnce(ctx)
	out := make([]string, len(list))
	for i, ss := range list {
		if _, err := s.savedRequest(ss, SavedPage{}, dirs); err != nil {
			out[i] = err.Error()
		}
	}
	return out
}

// watchedOnce reads the watched folders when first asked, once for the
// checks of several saved searches.
func (s *Service) watchedOnce(ctx context.Context) func() ([]core.WatchedDirectory, error) {
	return sync.OnceValues(func() ([]core.WatchedDirectory, error) { return s.store.Directories(ctx) })
}

// savedRequest is the search of a saved search, or why it no longer runs
// as saved; dirs gives the watched folders.
func (s *Service) savedRequest(ss core.SavedSearch, page SavedPage, dirs func() ([]core.WatchedDirectory, error)) (PageRequest, error) {
	pr, err := s.buildSaved(ss.Request, page)
	if err != nil {
		return pr, stale(ss, err)
	}
	if dir := ss.Request.Directory; dir != "" {
		watched, err := dirs()
		if err != nil {
			return pr, s.indexErr(err)
		}
		if !below(watched, dir) {
			return pr, stale(ss, core.FailField(core.BadDirectory, "directory", "%s is not in a watched folder now: watch it again, or save the search with another folder", dir))
		}
	}
	return pr, nil
}

func (s *Service) buildSaved(req core.SavedRequest, page SavedPage) (PageRequest, error) {
	if s.savedBuilder == nil {
		return PageRequest{}, core.Fail(core.NotSupported, "this Trove cannot run saved searches")
	}
	return s.savedBuilder(req, page)
}

// below reports whether dir is a watched folder or lies in one.
func below(dirs []core.WatchedDirectory, dir string) bool {
	return slices.ContainsFunc(dirs, func(d core.WatchedDirectory) bool { return scan.Within(d.Path, dir) })
}

// stale words a request error of a saved search as the saved search's,
// keeping its fault and field.
func stale(ss core.SavedSearch, err error) error {
	var e *core.Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Message = fmt.Sprintf("saved search %q no longer runs as saved: %s", ss.Name, e.Message)
	return &c
}

// savedName checks a saved search's name and trims it.
func savedName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case !utf8.ValidString(name):
		return "", core.FailField(core.BadName, "name", "must be text (UTF-8)")
	case n == 0:
		return "", core.FailField(core.BadName, "name", "must not be empty")
	case n > MaxSavedName:
		return "", core.FailField(core.BadName, "name", "is %d characters long; the longest is %d", n, MaxSavedName)
	case strings.ContainsFunc(name, unicode.IsControl):
		return "", core.FailField(core.BadName, "name", "must not hold control characters (line breaks, tabs)")
	}
	return name, nil
}

// savedWriteErr words a failed write of the saved search named name: a
// name taken, the index's disk full or failing, the index damaged.
func (s *Service) savedWriteErr(err error, name string) error {
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return core.FailField(core.NameTaken, "name", "a saved search is named %q already (names differing only in case are the same): choose another name, or change that search", name)
	case store.IsStorageError(err):
		return core.Fail(core.UnwritableIndex, "the saved search %q could not be written: the index's disk is full or failing", name)
	}
	return s.indexErr(err)
}

// NotifySaved runs until ctx ends. As files are indexed it checks each
// saved search that notifies against the files added since it last
// looked, once their content is read, and publishes saved.matched for
// each that new files match. The daemon runs it beside the indexer.
func (s *Service) NotifySaved(ctx context.Context) error {
	sub := s.bus.Subscribe(1024, prompts)
	defer func() { sub.Cancel() }()
	var settle <-chan time.Time
	var buf []core.Event
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Ready():
			var live bool
			if buf, live = sub.Take(buf[:0]); !live {
				// It fell behind: the check reads the index, not the
				// events, so none is lost.
				sub = s.bus.Subscribe(1024, prompts)
			}
			if settle == nil {
				settle = time.After(s.savedSettle)
			}
		case <-settle:
			settle = nil
			if err := core.Safe(func() { s.checkSaved(ctx) }); err != nil {
				s.log.Error("checking saved searches panicked", "panic", err, "stack", string(err.(*core.PanicError).Stack))
			}
		}
	}
}

// prompts are the events after which new files may match a saved search:
// a file's content read (or not), a folder's files found by name.
func prompts(e core.Event) bool {
	switch e.Type {
	case core.EventFileIndexed, core.EventFileFailed, core.EventFolderStatus, core.EventScanProgress:
		return true
	}
	return false
}

// checkSaved checks every saved search that notifies.
func (s *Service) checkSaved(ctx context.Context) {
	list, err := s.store.SavedSearches(ctx)
	if err != nil {
		s.log.Warn("cannot read the saved searches to notify", "err", err)
		return
	}
	dirs := s.watchedOnce(ctx)
	for _, ss := range list {
		if !ss.Notify || ctx.Err() != nil {
			continue
		}
		through, err := s.store.SettledThrough(ctx, ss.SeenFileID)
		if err != nil || through <= ss.SeenFileID {
			continue
		}
		if err := s.checkNew(ctx, ss, through, dirs); err != nil {
			// A saved search that no longer runs is not checked again
			// for these files: it would fail the same way.
			s.log.Warn("cannot check a saved search for new files", "saved_search", ss.ID, "err", err)
		}
		if err := s.store.SawFiles(ctx, ss.ID, through); err != nil {
			s.log.Warn("cannot record a saved search's check", "saved_search", ss.ID, "err", err)
		}
	}
}

// checkNew runs a saved search over the files after its mark up to
// through, and publishes what matches. It matches by words, names and
// fields (keyword mode): meaning alone finds some file for every query.
func (s *Service) checkNew(ctx context.Context, ss core.SavedSearch, through int64, dirs func() ([]core.WatchedDirectory, error)) error {
	limit := savedSample
	pr, err := s.savedRequest(ss, SavedPage{Limit: &limit}, dirs)
	if err != nil {
		return err
	}
	pr.Offset = 0
	pr.Filters.AfterID, pr.Filters.ThroughID = ss.SeenFileID, through
	pr.Snippets = false
	if pr.Mode != ModeNames {
		pr.Mode = ModeKeyword
	}
	ans, err := s.SearchPage(ctx, pr)
	if err != nil || ans.Total == 0 {
		return err
	}
	ev := core.SavedMatched{ID: ss.ID, Name: ss.Name, Count: ans.Total}
	for _, r := range ans.Results {
		ev.Files = append(ev.Files, core.MatchedFile{ID: r.File.ID, Path: r.File.Path})
	}
	s.bus.Publish(ev)
	return nil
}
