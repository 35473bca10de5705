package core

// LoginItem is the desktop's "start at login" entry for the Trove app.
type LoginItem struct {
	Supported bool   `json:"supported"` // false where Trove cannot write one
	Enabled   bool   `json:"enabled"`
	Path      string `json:"path"`    // where the entry lives
	Command   string `json:"command"` // what it starts
}

// HotkeySetup is how to bind a global key to quick search on one desktop:
// commands to paste into a terminal.
type HotkeySetup struct {
	Desktop  string `json:"desktop"`  // "GNOME", "KDE Plasma"
	Key      string `json:"key"`      // the key it binds, as that desktop writes it
	Commands string `json:"commands"` // a shell script
	Note     string `json:"note"`     // what else to know
}

// Integration is how one of Trove's ways into the desktop is doing: the
// tray, the global shortcut, the desktop search providers. GET
// /api/status/ lists them; Settings shows them, so a person learns why
// there is no tray icon and what works instead.
type Integration struct {
	Name    string `json:"name"`    // IntegrationTray, IntegrationShortcut, IntegrationSearch
	State   string `json:"state"`   // IntegrationOK, IntegrationUnavailable, IntegrationOff
	Message string `json:"message"` // what it does or why it cannot, for people
}

// The integrations, in the order status lists them.
const (
	IntegrationTray     = "tray"
	IntegrationShortcut = "shortcut"
	IntegrationSearch   = "desktop_search" // GNOME Shell search provider and KRunner
)

// Integration states.
const (
	IntegrationOK          = "ok"
	IntegrationUnavailable = "unavailable" // this desktop lacks what it needs
	IntegrationOff         = "off"         // turned off in Settings
)
