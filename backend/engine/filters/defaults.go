package filters

import "trove/backend/core"

// junk is what nobody searches for: version-control internals, dependency
// and tool caches, build outputs, OS and editor droppings, temp and swap
// files. Patterns name folders precisely ("**/target/debug/**", not
// "**/target/**") because folders called build or target often hold real work.
var junk = []string{
	// version control
	"**/.git/**", "**/.hg/**", "**/.svn/**", "**/.bzr/**", "**/_darcs/**", "**/CVS/**",
	// dependencies and tool caches
	"**/node_modules/**", "**/bower_components/**", "**/.pnpm-store/**", "**/.yarn/cache/**", "**/.npm/**",
	"**/.venv/**", "**/venv/**", "**/__pycache__/**", "**/.mypy_cache/**", "**/.pytest_cache/**",
	"**/.ruff_cache/**", "**/.tox/**", "**/.nox/**", "**/.eggs/**", "**/*.egg-info/**",
	"**/.gradle/**", "**/.m2/repository/**", "**/.cargo/registry/**", "**/.terraform/**",
	"**/.cache/**", "**/.sass-cache/**", "**/.parcel-cache/**", "**/.turbo/**", "**/.dart_tool/**", "**/.direnv/**",
	// build outputs
	"**/target/debug/**", "**/target/release/**", "**/.next/**", "**/.nuxt/**", "**/.svelte-kit/**", "**/.angular/**",
	"**/*.o", "**/*.obj", "**/*.pyc", "**/*.pyo", "**/*.class",
	// editors and IDEs
	"**/.idea/**", "**/.vscode/**", "**/*.swp", "**/*.swo", "**/*.swx", "**/*~", "**/.#*", "**/#*#",
	"**/4913", "**/*.kate-swp", "**/.~lock.*#", "**/~$*",
	// operating systems
	"**/.DS_Store", "**/._*", "**/Thumbs.db", "**/desktop.ini", "**/.Spotlight-V100/**", "**/.fseventsd/**",
	"**/.Trashes/**", "**/.Trash/**", "**/.Trash-*/**", "**/$RECYCLE.BIN/**", "**/lost+found/**",
	// temporary and partial downloads
	"**/*.tmp", "**/*.temp", "**/*.part", "**/*.partial", "**/*.crdownload", "**/.goutputstream-*",
}

// documents is the whitelist preset: formats people write and read.
var documents = []string{
	"**/*.txt", "**/*.md", "**/*.markdown", "**/*.rst", "**/*.org", "**/*.tex",
	"**/*.pdf", "**/*.doc", "**/*.docx", "**/*.odt", "**/*.rtf", "**/*.epub",
	"**/*.xls", "**/*.xlsx", "**/*.ods", "**/*.csv", "**/*.tsv",
	"**/*.ppt", "**/*.pptx", "**/*.odp",
	"**/*.eml", "**/*.mbox", "**/*.html", "**/*.htm",
	"**/*.json", "**/*.yaml", "**/*.yml", "**/*.toml", "**/*.xml",
}

// Defaults returns the default patterns: blacklist mode, junk excluded.
func Defaults() core.FilterPatterns {
	p := core.FilterPatterns{
		Mode:             modeBlacklist,
		BlacklistExclude: append([]string(nil), junk...),
		BlacklistInclude: []string{},
		WhitelistInclude: append([]string(nil), documents...),
		WhitelistExclude: append([]string(nil), junk...),
	}
	p.Exclude, p.Include = p.BlacklistExclude, p.BlacklistInclude
	return p
}
