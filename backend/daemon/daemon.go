// Package daemon is Trove's composition root: it opens the index and the
// configuration, wires the engine, the service and the API together, and
// runs every long-lived part under one supervisor until the context ends.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"trove/backend/core"
	"trove/backend/engine/embedding"
	"trove/backend/engine/events"
	"trove/backend/engine/extract"
	"trove/backend/engine/filters"
	"trove/backend/engine/indexer"
	"trove/backend/engine/pipeline"
	"trove/backend/engine/scheduler"
	"trove/backend/engine/search"
	"trove/backend/engine/settings"
	"trove/backend/platform/dirlock"
	"trove/backend/platform/launch"
	"trove/backend/platform/privdir"
	"trove/backend/service"
	"trove/backend/shell/api"
	"trove/backend/shell/mcp"
	"trove/backend/shell/views"
	"trove/backend/store"
)

// Config is what a Trove process needs to start.
type Config struct {
	Addr      string // listen address, 127.0.0.1:8765 by default
	DataDir   string // index.db
	ConfigDir string // settings.json, filters.json
	Token     string // optional bearer token for the API
	Version   string
	Log       *slog.Logger
	// Extract replaces file extraction; tests use it to inject faults.
	Extract pipeline.ExtractFunc
	// OCR finds tesseract (nil: the process's probe); tests use it to
	// pretend tesseract is missing.
	OCR *extract.OCRProbe
	// UI is the built web interface served at /.
	UI fs.FS
	// MaxWatches caps the folders watched live (0: the kernel's limit);
	// folders beyond it are rescanned periodically instead.
	MaxWatches int
	// MountCheck is how often folders on drives and shares are checked
	// for being there (0: every 10 seconds).
	MountCheck time.Duration
	// NetworkRescan is how often folders on shares and FUSE mounts, whose
	// changes the kernel may not report, are rescanned when their watch
	// named no period (0: indexer.DefaultNetworkRescan).
	NetworkRescan time.Duration
	// ProviderRetry is how often an embedding provider that stopped
	// answering is tried again (0: every 30 seconds).
	ProviderRetry time.Duration
	// SearchTimeout bounds each search (0: service.DefaultSearchTimeout);
	// SearchHook is called as each search starts (tests hold searches
	// with it).
	SearchTimeout time.Duration
	SearchHook    func(context.Context, service.SearchRequest)
	// WriteHook is called inside the index's transaction as each file is
	// written; tests make it panic or fail.
	WriteHook func(path string)
	// SessionBus is the D-Bus address where Trove offers its search to
	// the desktop (GNOME Shell, KRunner): SessionBusFromEnv for the
	// desktop session's, "" for none (tests).
	SessionBus string
}

// Daemon is a started Trove backend.
type Daemon struct {
	cfg     Config
	store   *store.Store
	svc     *service.Service
	api     *api.Server
	indexer *indexer.Indexer
	sched   *scheduler.Scheduler
	health  *embedding.Health
	ln      net.Listener
	lock    *dirlock.Lock
	quiet   *quiet // gives memory back when work stops
	notice  string // what opening the index had to do, if anything
}

// AlreadyRunningError is New's error when another Trove holds the data
// directory; its message names that process and its address.
type AlreadyRunningError = dirlock.HeldError

// NewerIndexError is New's error when the index was made by a newer Trove:
// it is left as it was, and the message says what to do.
type NewerIndexError = store.NewerIndexError

// New opens everything and binds the listener, so that a port already in use
// or an unreadable index is reported before Run.
func New(cfg Config) (*Daemon, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if err := checkLoopback(cfg.Addr, cfg.Log); err != nil {
		return nil, err
	}
	madePrivate, err := privateDirs(cfg)
	if err != nil {
		return nil, err
	}
	// Before anything touches the index: a second process on it would
	// fail the first one's writes.
	lock, err := dirlock.Acquire(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	st, notice, err := openIndex(cfg.DataDir, cfg.ConfigDir, cfg.Log)
	if err != nil {
		lock.Release()
		return nil, err
	}
	notice = strings.TrimSpace(strings.Join(append([]string{notice}, madePrivate...), " "))
	st.SetWriteHook(cfg.WriteHook)
	d := &Daemon{cfg: cfg, store: st, lock: lock, notice: notice, quiet: newQuiet()}
	if err := d.wire(); err != nil {
		st.Close()
		lock.Release()
		return nil, err
	}
	if err := lock.SetAddr(d.Addr()); err != nil {
		cfg.Log.Warn("cannot record the address in the lock file", "err", err)
	}
	return d, nil
}

// privateDirs makes the data and config folders the user's alone (the
// index holds the text of every indexed file), and says what it changed.
func privateDirs(cfg Config) ([]string, error) {
	var fixed []string
	for _, dir := range []string{cfg.DataDir, cfg.ConfigDir} {
		note, err := privdir.Ensure(dir)
		if err != nil {
			return nil, fmt.Errorf("Trove keeps its index and settings private and cannot use %w", err)
		}
		if note != "" {
			cfg.Log.Warn(note)
			fixed = append(fixed, note+".")
		}
	}
	return fixed, nil
}

func (d *Daemon) wire() error {
	cfg := d.cfg
	// Made now so that its real path is known to the exclusion of Trove's
	// own folders from indexing.
	if err := os.MkdirAll(cfg.ConfigDir, 0o700); err != nil {
		return fmt.Errorf("create config dir: %w", err)
	}
	set, err := settings.Open(cfg.ConfigDir, cfg.Log)
	if err != nil {
		return err
	}
	flt, err := filters.Open(cfg.ConfigDir, cfg.Log)
	if err != nil {
		return err
	}
	bus := events.New(cfg.Log)
	// Indexing is work too: what it grew is given back when it stops.
	publish := func(e core.EventData) { d.quiet.touch(); bus.Publish(e) }
	var ix *indexer.Indexer
	var mod *models
	d.health = embedding.NewHealth(embedding.HealthOptions{
		Log: cfg.Log, RetryEvery: cfg.ProviderRetry,
		OnChange:  func(st core.EmbeddingHealth) { bus.Publish(st) },
		OnRecover: func() { ix.RescanAll(true) }, // files without vectors are not current: they are redone
		Pending: func(ctx context.Context) (int, error) {
			return d.store.CountWithoutVectors(ctx, mod.Embedder().Model())
		},
	})
	mod = newModels(d.store, set.Get(), d.health, cfg.Log)
	vecs := search.NewVectors(mod.Embedder().Model())
	if err := d.store.LoadVectors(context.Background(), vecs.Model(), vecs.Add); err != nil {
		return err
	}
	d.store.Observe(vecs)
	engine := &search.Engine{Store: d.store, Vectors: vecs, Embedder: mod.Embedder, Log: cfg.Log}
	pipe := pipeline.New(pipeline.Deps{
		Store: d.store, Settings: set.Get, Matcher: flt.Matcher,
		Extract: cfg.Extract, OCR: cfg.OCR,
		Enricher: mod.Enricher, Embedder: mod.Embedder, Publish: publish, Log: cfg.Log,
	})
	ix, err = indexer.New(indexer.Deps{Store: d.store, Filters: flt, Pipeline: pipe, Settings: set.Get, Publish: publish,
		Log: cfg.Log, MaxWatches: cfg.MaxWatches, MountCheck: cfg.MountCheck, NetworkRescan: cfg.NetworkRescan, Exclude: []string{cfg.DataDir, cfg.ConfigDir},
		FolderList: filepath.Join(cfg.ConfigDir, store.FolderListName), Notice: d.notice,
		Rebuilt: func() { vecs.Reset(mod.Embedder().Model()) }})
	if err != nil {
		return err
	}
	d.indexer = ix
	d.sched = scheduler.New(func() core.SchedulerSettings { return set.Get().Scheduler }, scheduler.NewSystem(), ix.Queue(), cfg.Log)
	set.OnChange(func(old, cur core.Settings) {
		ix.SettingsChanged(cur)
		d.sched.SettingsChanged()
		if cur.Extraction.OCR && !old.Extraction.OCR {
			ix.ReadPendingOCR() // what OCR would read more of is read again
		}
		if mod.rebuild(cur) {
			if m := mod.Embedder().Model(); m != vecs.Model() {
				vecs.Reset(m)
			}
			ix.RescanAll(true)
		}
	})
	d.svc = service.New(service.Deps{
		Store: d.store, Settings: set, Filters: flt, Bus: bus, Indexer: ix, Search: engine, Opener: launch.Desktop{}, Log: cfg.Log, Version: cfg.Version,
		Health: d.health, TokenSet: cfg.Token != "", DataDir: cfg.DataDir, ConfigDir: cfg.ConfigDir,
		SearchTimeout: cfg.SearchTimeout, SearchHook: d.searchStarts, OCR: cfg.OCR, BuildSaved: views.BuildSaved,
	})
	d.ln, err = net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	d.api = api.New(d.svc, d.ln, api.Options{Token: cfg.Token, Log: cfg.Log, UI: cfg.UI, OnRequest: d.quiet.touch,
		MCP: mcp.Handler(d.svc, mcp.Options{Version: cfg.Version, Log: cfg.Log})})
	return nil
}

// searchStarts is called as each search starts, from the API or the
// desktop window (whose searches reach the service without a request).
func (d *Daemon) searchStarts(ctx context.Context, req service.SearchRequest) {
	d.quiet.touch()
	if d.cfg.SearchHook != nil {
		d.cfg.SearchHook(ctx, req)
	}
}

// checkLoopback warns when the API is exposed beyond this machine: allowed,
// because the user asked for it explicitly, but never silent.
func checkLoopback(addr string, log *slog.Logger) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		log.Warn("the Trove API is listening beyond loopback; anyone who can reach it can search your files", "addr", addr)
	}
	return nil
}

// Addr is the address the API listens on (useful with port 0).
func (d *Daemon) Addr() string { return d.ln.Addr().String() }

// Service is the facade, for the desktop shell.
func (d *Daemon) Service() *service.Service { return d.svc }

// API is the HTTP server, for the desktop shell to serve the UI through.
func (d *Daemon) API() *api.Server { return d.api }

// Window serves the desktop window's API requests in process.
func (d *Daemon) Window() http.Handler { return d.api.Window() }

// Run serves until ctx ends, then shuts down in order: stop taking requests,
// let in-flight work finish, close the index cleanly.
func (d *Daemon) Run(ctx context.Context) error {
	d.cfg.Log.Info("trove started", "addr", d.Addr(), "data_dir", d.cfg.DataDir, "config_dir", d.cfg.ConfigDir, "version", d.cfg.Version)
	g, gctx := errgroup.WithContext(ctx)
	parts := []func(context.Context) error{d.api.Run, d.indexer.Run, d.sched.Run, d.health.Run, d.quiet.run, d.svc.NotifySaved}
	if d.cfg.SessionBus != "" {
		parts = append(parts, d.desktopSearch)
	}
	for _, run := range parts {
		// A panic that escapes a part becomes its error: the others stop
		// and the index is closed cleanly, rather than the process dying.
		g.Go(func() error {
			var err error
			if perr := core.Safe(func() { err = run(gctx) }); perr != nil {
				d.cfg.Log.Error("recovered from a panic", "panic", perr, "stack", string(perr.(*core.PanicError).Stack))
				return perr
			}
			return err
		})
	}
	err := g.Wait()
	if cerr := d.store.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("close index: %w", cerr))
	}
	d.lock.Release()
	d.cfg.Log.Info("trove stopped")
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
