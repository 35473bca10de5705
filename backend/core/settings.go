package core

// Settings are the user-tunable knobs, grouped by section. The JSON names are
// the API's: `section.key` is the dotted path a partial update addresses.
type Settings struct {
	Summarizer SummarizerSettings `json:"summarizer"`
	Embedding  EmbeddingSettings  `json:"embedding"`
	Queue      QueueSettings      `json:"queue"`
	Scheduler  SchedulerSettings  `json:"scheduler"`
	Extraction ExtractionSettings `json:"extraction"`
	UI         UISettings         `json:"ui"`
	Desktop    DesktopSettings    `json:"desktop"`
	MCP        MCPSettings        `json:"mcp"`
}

// DesktopSettings are the desktop app's place on the desktop.
type DesktopSettings struct {
	// Shortcut opens quick search from anywhere ("<Ctrl><Alt>space");
	// "" binds none.
	Shortcut string `json:"shortcut"`
}

// MCPSettings say what AI agents may do through Trove's MCP server beyond
// reading: both off by default, and the tools are not even listed then.
type MCPSettings struct {
	AllowOpen  bool `json:"allow_open"`  // open files on the desktop
	AllowWatch bool `json:"allow_watch"` // add folders to the index
}

// Provider names accepted by the summarizer and embedding sections.
const (
	ProviderBuiltin = "builtin"
	ProviderOllama  = "ollama"
	ProviderOpenAI  = "openai"
)

// SummarizerSettings choose who writes each file's title, summary and keywords.
type SummarizerSettings struct {
	Provider       string  `json:"provider"`
	Model          string  `json:"model"`
	BaseURL        string  `json:"base_url"`
	APIKeyEnv      string  `json:"api_key_env"`
	TimeoutSeconds float64 `json:"timeout_seconds"`
	MaxConcurrency int     `json:"max_concurrency"`
}

// EmbeddingSettings choose who turns text into vectors for semantic search.
type EmbeddingSettings struct {
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	BaseURL   string `json:"base_url"`
	APIKeyEnv string `json:"api_key_env"`
}

// QueueSettings tune the indexing queue.
type QueueSettings struct {
	CooldownSeconds float64 `json:"cooldown_seconds"`
	MaxConcurrency  int     `json:"max_concurrency"`
	MaxRetries      int     `json:"max_retries"`
}

// Scheduler combine modes: the queue may run when ALL rules hold, or when
// ANY rule holds.
const (
	CombineAll = "ALL"
	CombineAny = "ANY"
)

// SchedulerSettings describe when indexing is allowed to run. When enabled,
// the scheduler pauses the queue whenever the rules, combined by
// CombineMode, do not hold.
type SchedulerSettings struct {
	Enabled              bool            `json:"enabled"`
	CombineMode          string          `json:"combine_mode"`
	CheckIntervalSeconds float64         `json:"check_interval_seconds"`
	Rules                []SchedulerRule `json:"rules"`
}

// Scheduler rule types.
const (
	RuleTimeWindow   = "time_window"   // start, end ("HH:MM", local time), optional days
	RuleOnACPower    = "on_ac_power"   // no parameters
	RuleCPUBelow     = "cpu_below"     // percent: system CPU use must be below it
	RuleBatteryAbove = "battery_above" // percent: battery charge at least it (or on AC)
)

// SchedulerRule is one condition under which indexing may run. Only the
// fields of its Type are set; the others stay empty.
type SchedulerRule struct {
	Type    string   `json:"type"`
	Start   string   `json:"start,omitempty"`
	End     string   `json:"end,omitempty"`
	Days    []string `json:"days,omitempty"`
	Percent *float64 `json:"percent,omitempty"`
}

// ExtractionSettings bound the work spent on one file so that a huge or
// hostile file cannot stall the machine.
type ExtractionSettings struct {
	MaxFileSizeMB  float64 `json:"max_file_size_mb"`
	TimeoutSeconds float64 `json:"timeout_seconds"`
	MaxTextMB      float64 `json:"max_text_mb"`
	// OCR reads text in images and scanned PDF pages with tesseract; off by
	// default, and harmless without tesseract (the files say so).
	OCR bool `json:"ocr"`
}

// UISettings are the person's choices for the windows and the tray.
type UISettings struct {
	// Language is a BCP 47 tag of one of UILanguages, or "" to follow the
	// system (the browser's languages, or the locale of the tray).
	Language string `json:"language"`
}

// UILanguages are the languages the web UI and the tray speak.
var UILanguages = []string{"en", "de", "fr", "es", "zh-CN", "ja", "ru"}
