package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trove/internal/testserver"
)

// Open with lists the desktop's applications for the file's type (from
// .desktop entries) and starts only one of them, with the file.
func TestOpenWithDesktopApplications(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("XDG_DATA_DIRS", data)
	out := filepath.Join(t.TempDir(), "opened")
	script := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s|%s' \"$1\" \"$2\" > '"+out+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	testserver.WriteFiles(t, data,
		"applications/editor.desktop", "[Desktop Entry]\nType=Application\nName=Plain Editor\nExec=\""+script+"\" --new \"--file=%f\"\nMimeType=text/plain;text/markdown;\n",
		"applications/viewer.desktop", "[Desktop Entry]\nType=Application\nName=Image Viewer\nExec=viewer %u\nMimeType=image/png;\n",
		"applications/hidden.desktop", "[Desktop Entry]\nType=Application\nName=Hidden\nExec=hidden %f\nNoDisplay=true\nMimeType=text/plain;\n",
	)
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root, "a b.txt", "plain words")
	s.IndexDir(root, 1)
	id := s.FileID(filepath.Join(root, "a b.txt"))
	r := s.Get(fmt.Sprintf("/api/files/%d/apps", id))
	apps, _ := r.Field("apps").([]any)
	if r.Status != 200 || len(apps) != 1 || apps[0].(map[string]any)["id"] != "editor.desktop" || apps[0].(map[string]any)["name"] != "Plain Editor" {
		t.Fatalf("apps: %d %s", r.Status, r.Body)
	}
	for _, app := range []string{"viewer.desktop", "hidden.desktop", "../editor.desktop", ""} {
		if r := s.Do("POST", fmt.Sprintf("/api/files/%d/open-with", id), map[string]any{"app": app}); r.Status != 400 {
			t.Fatalf("%q: %d %s", app, r.Status, r.Body)
		}
	}
	r = s.Do("POST", fmt.Sprintf("/api/files/%d/open-with", id), map[string]any{"app": "editor.desktop"})
	if r.Status != 200 {
		t.Fatalf("open with: %d %s", r.Status, r.Body)
	}
	// The script gets "--new" then the path in place of the field code
	// inside its argument, as one argument (no shell).
	want := "--new|--file=" + filepath.Join(root, "a b.txt")
	testserver.Eventually(t, 10*time.Second, "the application to run", func() bool {
		b, _ := os.ReadFile(out)
		return strings.TrimSpace(string(b)) == want
	})
}
