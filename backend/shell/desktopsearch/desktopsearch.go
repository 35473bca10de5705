// Package desktopsearch puts Trove where people already search: GNOME
// Shell's overview (org.gnome.Shell.SearchProvider2) and KDE's KRunner
// (org.kde.krunner1), both on the session bus. Both ask a Finder, the
// one home of "what was typed -> which files", and open files through the
// service, which checks that a path still holds the file that was indexed.
//
// The package's files installed beside the binary tell the desktops where
// to call: build/linux/dev.trove.Trove.search-provider.ini (GNOME),
// build/linux/dev.trove.Trove.krunner.desktop (KRunner) and a D-Bus
// service file, so that a search starts Trove when it is not running.
package desktopsearch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"runtime/debug"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/introspect"

	"trove/backend/core"
	"trove/backend/shell/views"
)

// Where the providers live on the session bus. The bus name is not the
// desktop app's own (dev.trove.Trove, one app per session): a headless
// `trove serve` offers search too, and the D-Bus service file starts the
// app when a search asks for this name and nobody holds it.
const (
	BusName     = "dev.trove.Trove.Search"
	GNOMEPath   = dbus.ObjectPath("/dev/trove/Trove/SearchProvider")
	KRunnerPath = dbus.ObjectPath("/dev/trove/Trove/KRunner")
)

// Options are what the providers need besides the service.
type Options struct {
	Log *slog.Logger
	// WebUI is the address of Trove's web interface (http://127.0.0.1:8765),
	// shown for "more results" when this process has no window.
	WebUI string
	// OpenURL opens an address in the browser (for WebUI).
	OpenURL func(url string) error
}

// Providers are the GNOME search provider and the KRunner runner,
// exported on one connection.
type Providers struct {
	conn   *dbus.Conn
	svc    Searcher
	finder *Finder
	opt    Options
	icons  iconIndex
}

// ErrNameTaken is Register's error when another process holds BusName:
// another Trove (the app and `trove serve` with another index, say)
// already answers the desktop's searches.
var ErrNameTaken = errors.New("another Trove already answers desktop searches on this session bus (" + BusName + " is taken)")

// Register exports both providers on conn and claims BusName. The caller
// keeps the connection; Close gives the name back.
func Register(conn *dbus.Conn, svc Searcher, opt Options) (*Providers, error) {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	p := &Providers{conn: conn, svc: svc, finder: NewFinder(svc), opt: opt}
	exports := []struct {
		obj   any
		path  dbus.ObjectPath
		iface string
		xml   string
	}{
		{gnome{p}, GNOMEPath, gnomeIface, gnomeIntrospection},
		{krunner{p}, KRunnerPath, krunnerIface, krunnerIntrospection},
	}
	for _, e := range exports {
		if err := conn.Export(e.obj, e.path, e.iface); err != nil {
			return nil, fmt.Errorf("export %s: %w", e.iface, err)
		}
		node := "<node>" + e.xml + introspect.IntrospectDataString + "</node>"
		if err := conn.Export(introspect.Introspectable(node), e.path, "org.freedesktop.DBus.Introspectable"); err != nil {
			return nil, fmt.Errorf("export introspection of %s: %w", e.iface, err)
		}
	}
	reply, err := conn.RequestName(BusName, dbus.NameFlagDoNotQueue)
	if err != nil {
		p.unexport()
		return nil, fmt.Errorf("claim %s: %w", BusName, err)
	}
	if reply != dbus.RequestNameReplyPrimaryOwner && reply != dbus.RequestNameReplyAlreadyOwner {
		p.unexport()
		return nil, ErrNameTaken
	}
	return p, nil
}

// Close gives the bus name back and stops answering.
func (p *Providers) Close() {
	p.conn.ReleaseName(BusName)
	p.unexport()
}

func (p *Providers) unexport() {
	for _, path := range []dbus.ObjectPath{GNOMEPath, KRunnerPath} {
		for _, iface := range []string{gnomeIface, krunnerIface, "org.freedesktop.DBus.Introspectable"} {
			p.conn.Export(nil, path, iface)
		}
	}
}

// open opens the file of a hit (at the page of its match), or shows it
// in its folder.
func (p *Providers) open(id string, reveal bool) *dbus.Error {
	n, page, err := ParseID(id)
	switch {
	case err != nil:
	case page > 1 && !reveal:
		_, err = p.svc.OpenFileAt(context.Background(), n, page)
	default:
		_, err = p.svc.OpenFile(context.Background(), n, reveal)
	}
	if err != nil {
		return p.failed("open", err)
	}
	return nil
}

// showSearch shows Trove's own search on query: the app's window, or the
// web interface in the browser when this process has no window.
func (p *Providers) showSearch(query string) error {
	if w := p.svc.Window(); w != nil {
		w.ShowSearch(query)
		return nil
	}
	if p.opt.WebUI == "" || p.opt.OpenURL == nil {
		return core.Fail(core.NoWindow, "this Trove has no window to show")
	}
	if err := p.opt.OpenURL(p.opt.WebUI + "/?q=" + url.QueryEscape(query)); err != nil {
		return core.Fail(core.OpenFailed, "cannot open Trove's web interface: %v", err)
	}
	return nil
}

// copyPath puts a hit's path on the clipboard (see copyText).
func (p *Providers) copyPath(id string) *dbus.Error {
	h, err := p.finder.Lookup(context.Background(), id)
	if err == nil {
		err = p.copyText(h.Path)
	}
	if err != nil {
		return p.failed("copy the path", err)
	}
	return nil
}

// fileURL is a path as a file: URL, which KRunner uses to drag a match.
func fileURL(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// failed is a D-Bus error in the words the API uses for the same failure
// (logged when it is Trove's own fault).
func (p *Providers) failed(what string, err error) *dbus.Error {
	info := views.ErrorOf(err)
	if info.Status >= 500 {
		p.opt.Log.Error("desktop search: cannot "+what, "err", err)
	}
	return dbus.MakeFailedError(errors.New(info.Message))
}

// recover turns a panic in a bus method into that call's error: godbus
// calls methods on its own goroutines and recovers nothing.
func (p *Providers) recover(method string, derr **dbus.Error) {
	if r := recover(); r != nil {
		p.opt.Log.Error("panic in a desktop search call", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		*derr = dbus.MakeFailedError(errors.New(views.InternalMessage))
	}
}

func errUnknownAction(a string) error {
	return fmt.Errorf("%q is not an action of Trove's runner (use open, reveal or copy)", a)
}
