//go:build desktopsmoke

package smoke

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// startBus starts a private session bus and returns its address.
func startBus(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon: %v (apt-get install dbus)", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return firstLine(t, out, "bus address from dbus-daemon")
}

// item is a registered status-notifier item: its bus name and object path.
type item struct {
	sender string
	path   dbus.ObjectPath
}

// watcher plays the desktop's org.kde.StatusNotifierWatcher (the panel's
// tray host): status-notifier items register with it.
type watcher struct {
	items chan item
}

// RegisterStatusNotifierItem is called by an item: service is its object
// path or its bus name.
func (w *watcher) RegisterStatusNotifierItem(service string, sender dbus.Sender) *dbus.Error {
	it := item{sender: string(sender), path: "/StatusNotifierItem"}
	if strings.HasPrefix(service, "/") {
		it.path = dbus.ObjectPath(service)
	} else {
		it.sender = service
	}
	w.items <- it
	return nil
}

func startWatcher(t *testing.T, conn *dbus.Conn) *watcher {
	t.Helper()
	w := &watcher{items: make(chan item, 8)}
	if err := conn.Export(w, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own org.kde.StatusNotifierWatcher: %v (reply %d)", err, reply)
	}
	return w
}

// menuItem is one entry of a dbusmenu layout.
type menuItem struct {
	id       int32
	label    string
	enabled  bool
	children []menuItem
}

// menuOf reads an item's menu through com.canonical.dbusmenu.GetLayout.
func menuOf(conn *dbus.Conn, it item) (menuItem, error) {
	path, err := menuPath(conn, it)
	if err != nil {
		return menuItem{}, err
	}
	var revision uint32
	var layout []any
	call := conn.Object(it.sender, path).Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{})
	if err := call.Store(&revision, &layout); err != nil {
		return menuItem{}, fmt.Errorf("GetLayout: %w", err)
	}
	return parseLayout(layout)
}

// menuPath is the object path of an item's dbusmenu (its Menu property).
func menuPath(conn *dbus.Conn, it item) (dbus.ObjectPath, error) {
	v, err := conn.Object(it.sender, it.path).GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		return "", fmt.Errorf("Menu property: %w", err)
	}
	path, ok := v.Value().(dbus.ObjectPath)
	if !ok {
		return "", fmt.Errorf("Menu property is %T, not an object path", v.Value())
	}
	return path, nil
}

// parseLayout decodes a (ia{sv}av) layout node.
func parseLayout(node []any) (menuItem, error) {
	if len(node) != 3 {
		return menuItem{}, fmt.Errorf("layout node has %d fields, want 3", len(node))
	}
	m := menuItem{enabled: true}
	m.id, _ = node[0].(int32)
	props, _ := node[1].(map[string]dbus.Variant)
	if l, ok := props["label"]; ok {
		m.label, _ = l.Value().(string)
	}
	if e, ok := props["enabled"]; ok {
		m.enabled, _ = e.Value().(bool)
	}
	kids, _ := node[2].([]dbus.Variant)
	for _, k := range kids {
		child, ok := k.Value().([]any)
		if !ok {
			return menuItem{}, fmt.Errorf("child is %T", k.Value())
		}
		c, err := parseLayout(child)
		if err != nil {
			return menuItem{}, err
		}
		m.children = append(m.children, c)
	}
	return m, nil
}

// find returns the first entry whose label has this prefix.
func (m menuItem) find(prefix string) (menuItem, bool) {
	for _, c := range m.children {
		if strings.HasPrefix(c.label, prefix) {
			return c, true
		}
		if f, ok := c.find(prefix); ok {
			return f, true
		}
	}
	return menuItem{}, false
}

func (m menuItem) labels() []string {
	var out []string
	for _, c := range m.children {
		if c.label != "" {
			out = append(out, c.label)
		}
	}
	return out
}

// click activates a menu entry as a tray host does on a click.
func click(conn *dbus.Conn, it item, id int32) error {
	path, err := menuPath(conn, it)
	if err != nil {
		return err
	}
	return conn.Object(it.sender, path).Call("com.canonical.dbusmenu.Event", 0,
		id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix())).Err
}

// noReply reports whether a call failed because its recipient left the
// bus without answering.
func noReply(err error) bool {
	var de dbus.Error
	return errors.As(err, &de) && de.Name == "org.freedesktop.DBus.Error.NoReply"
}
