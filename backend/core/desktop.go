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
