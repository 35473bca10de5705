package core

// Filter modes.
const (
	ModeBlacklist = "blacklist"
	ModeWhitelist = "whitelist"
)

// FilterPatterns is the part of a filter configuration a person edits.
// Exclude and Include mirror the active mode's arrays, for older clients.
type FilterPatterns struct {
	Mode             string   `json:"mode"`
	Exclude          []string `json:"exclude"`
	Include          []string `json:"include"`
	BlacklistExclude []string `json:"blacklist_exclude"`
	BlacklistInclude []string `json:"blacklist_include"`
	WhitelistInclude []string `json:"whitelist_include"`
	WhitelistExclude []string `json:"whitelist_exclude"`
}

// FilterConfig is the filter configuration as the API shows it. Patterns are
// stored per mode so that switching modes loses nothing.
type FilterConfig struct {
	Version int `json:"version"`
	FilterPatterns
	ConfigPath string `json:"config_path"`
}

// FilterUpdate is a partial update of the filter configuration: nil fields
// are left as they are.
type FilterUpdate struct {
	Mode             *string   `json:"mode"`
	ApplyImmediately *bool     `json:"apply_immediately"`
	Exclude          *[]string `json:"exclude"`
	Include          *[]string `json:"include"`
	BlacklistExclude *[]string `json:"blacklist_exclude"`
	BlacklistInclude *[]string `json:"blacklist_include"`
	WhitelistInclude *[]string `json:"whitelist_include"`
	WhitelistExclude *[]string `json:"whitelist_exclude"`
	// Version and ConfigPath are read-only; they are accepted so that a
	// client may send back a configuration it has read, and ignored.
	Version    *int    `json:"version"`
	ConfigPath *string `json:"config_path"`
}

// FilterChange reports what a filter change did to the index.
type FilterChange struct {
	Config       FilterConfig
	RemovedCount int
	// Pending is true when removal was deferred (apply_immediately=false).
	Pending bool
}
