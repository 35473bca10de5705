package autostart

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"trove/backend/platform/atomicfile"
)

// entryPath is a LaunchAgent, which launchd starts at login.
func entryPath() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "Library", "LaunchAgents", ID+".plist"), nil
}

func (e Entry) command() string { return e.exe + " " + HiddenFlag }

func (e Entry) write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create the LaunchAgents folder: %w", err)
	}
	var b strings.Builder
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString("<plist version=\"1.0\"><dict>\n<key>Label</key><string>" + ID + "</string>\n")
	b.WriteString("<key>ProgramArguments</key><array><string>")
	xml.EscapeText(&b, []byte(e.exe))
	b.WriteString("</string><string>" + HiddenFlag + "</string></array>\n")
	b.WriteString("<key>RunAtLoad</key><true/>\n</dict></plist>\n")
	return atomicfile.Write(path, []byte(b.String()), 0o644)
}

func present(path string) (bool, error) { return exists(path) }

func remove(path string) error { return removeFile(path) }
