package globalkey

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// The XDG desktop portal's GlobalShortcuts interface lets an application
// ask the desktop for a shortcut on Wayland and X11 alike: it opens a
// session, binds its shortcuts (the desktop may ask the person, and may
// pick another key), and receives Activated signals. Each call answers
// with a Request object whose Response signal carries the result.

const (
	portalName     = "org.freedesktop.portal.Desktop"
	portalPath     = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	shortcutsIface = "org.freedesktop.portal.GlobalShortcuts"
	requestIface   = "org.freedesktop.portal.Request"
	sessionIface   = "org.freedesktop.portal.Session"
	shortcutID     = "quick-search"
)

// portalAnswer bounds the wait for a portal's answer; binding may wait
// for the person to approve it in a dialog.
const portalAnswer = 5 * time.Minute

// ErrRefused means the person (or the desktop) declined the shortcut.
var ErrRefused = errors.New("the desktop declined the shortcut")

// hasPortal reports whether the session's portal offers GlobalShortcuts.
func hasPortal(conn *dbus.Conn) bool {
	var v dbus.Variant
	err := conn.Object(portalName, portalPath).Call("org.freedesktop.DBus.Properties.Get", 0, shortcutsIface, "version").Store(&v)
	return err == nil
}

// portalSession is a GlobalShortcuts session with the shortcut bound.
type portalSession struct {
	conn    *dbus.Conn
	handle  dbus.ObjectPath
	signals chan *dbus.Signal
	Trigger string // the shortcut as the desktop describes it ("" if it does not say)
}

// bindPortal opens a session and binds a to quick search.
func bindPortal(ctx context.Context, conn *dbus.Conn, a Accel) (*portalSession, error) {
	p := &portalSession{conn: conn, signals: make(chan *dbus.Signal, 16)}
	conn.Signal(p.signals)
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(shortcutsIface), dbus.WithMatchMember("Activated")); err != nil {
		p.close()
		return nil, err
	}
	results, err := p.request(ctx, "CreateSession", func(token string) []any {
		return []any{map[string]dbus.Variant{"handle_token": dbus.MakeVariant(token), "session_handle_token": dbus.MakeVariant(token)}}
	})
	if err != nil {
		p.close()
		return nil, fmt.Errorf("open a shortcuts session: %w", err)
	}
	switch h := results["session_handle"].Value().(type) {
	case string:
		p.handle = dbus.ObjectPath(h)
	case dbus.ObjectPath:
		p.handle = h
	}
	if !p.handle.IsValid() {
		p.close()
		return nil, errors.New("the portal opened no session")
	}
	type shortcut struct {
		ID   string
		Opts map[string]dbus.Variant
	}
	results, err = p.request(ctx, "BindShortcuts", func(token string) []any {
		return []any{p.handle, []shortcut{{shortcutID, map[string]dbus.Variant{
			"description":       dbus.MakeVariant("Open Trove's quick search"),
			"preferred_trigger": dbus.MakeVariant(a.Trigger()),
		}}}, "", map[string]dbus.Variant{"handle_token": dbus.MakeVariant(token)}}
	})
	if err != nil {
		p.close()
		return nil, fmt.Errorf("bind the shortcut: %w", err)
	}
	var bound []shortcut
	if v, ok := results["shortcuts"]; ok && dbus.Store([]any{v.Value()}, &bound) == nil {
		for _, s := range bound {
			if s.ID == shortcutID {
				p.Trigger, _ = s.Opts["trigger_description"].Value().(string)
			}
		}
	}
	return p, nil
}

// request calls a portal method whose answer comes as a Response signal
// on a Request object, and returns the response's results. The request's
// path is known before the call (the sender and the token), so the
// signal cannot come before Trove listens for it.
func (p *portalSession) request(ctx context.Context, method string, args func(token string) []any) (map[string]dbus.Variant, error) {
	token := newToken()
	sender := strings.ReplaceAll(strings.TrimPrefix(p.conn.Names()[0], ":"), ".", "_")
	path := dbus.ObjectPath(string(portalPath) + "/request/" + sender + "/" + token)
	match := []dbus.MatchOption{dbus.WithMatchInterface(requestIface), dbus.WithMatchMember("Response"), dbus.WithMatchObjectPath(path)}
	if err := p.conn.AddMatchSignal(match...); err != nil {
		return nil, err
	}
	defer p.conn.RemoveMatchSignal(match...)
	var handle dbus.ObjectPath
	if err := p.conn.Object(portalName, portalPath).CallWithContext(ctx, shortcutsIface+"."+method, 0, args(token)...).Store(&handle); err != nil {
		return nil, err
	}
	wait, cancel := context.WithTimeout(ctx, portalAnswer)
	defer cancel()
	for {
		select {
		case <-wait.Done():
			return nil, fmt.Errorf("no answer from the portal: %w", wait.Err())
		case sig := <-p.signals:
			if sig == nil || sig.Name != requestIface+".Response" || (sig.Path != handle && sig.Path != path) {
				continue
			}
			var code uint32
			var results map[string]dbus.Variant
			if err := dbus.Store(sig.Body, &code, &results); err != nil {
				return nil, fmt.Errorf("unexpected answer from the portal: %w", err)
			}
			if code != 0 {
				return nil, ErrRefused
			}
			return results, nil
		}
	}
}

// run calls activated on each press until ctx ends, then closes the
// session (the desktop lets the shortcut go).
func (p *portalSession) run(ctx context.Context, activated func()) {
	defer p.close()
	for {
		select {
		case <-ctx.Done():
			return
		case sig, ok := <-p.signals:
			if !ok {
				return
			}
			if sig.Name != shortcutsIface+".Activated" || len(sig.Body) < 2 {
				continue
			}
			session, _ := sig.Body[0].(dbus.ObjectPath)
			id, _ := sig.Body[1].(string)
			if session == p.handle && id == shortcutID {
				activated()
			}
		}
	}
}

func (p *portalSession) close() {
	if p.handle.IsValid() {
		p.conn.Object(portalName, p.handle).Call(sessionIface+".Close", 0)
	}
	p.conn.RemoveSignal(p.signals)
	p.conn.RemoveMatchSignal(dbus.WithMatchInterface(shortcutsIface), dbus.WithMatchMember("Activated"))
}

func newToken() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "trove" + hex.EncodeToString(b)
}
