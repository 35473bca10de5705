//go:build unix

package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trove/internal/testserver"
)

// A data folder that already exists and that other users may read (what
// --data-dir or TROVE_DATA_DIR may name) is made private at start, and the
// status says so: the index in it holds the text of every indexed file.
func TestAnOpenDataFolderIsMadePrivateAtStart(t *testing.T) {
	root := t.TempDir()
	data, config := filepath.Join(root, "data"), filepath.Join(root, "config")
	for _, d := range []string{data, config} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := testserver.Start(t, testserver.WithDirs(data, config))
	for _, d := range []string{data, config} {
		st, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if m := st.Mode().Perm(); m != 0o700 {
			t.Errorf("%s has mode %04o after start, want 0700", d, m)
		}
	}
	notice, _ := s.Get("/api/status/").Field("index.notice").(string)
	if !strings.Contains(notice, data) || !strings.Contains(notice, "private") {
		t.Errorf("the status does not say the data folder was made private: %q", notice)
	}
}
