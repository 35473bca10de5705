package daemon_test

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"trove/internal/testserver"
)

func TestMoveInNested(t *testing.T) {
	for _, replace := range []bool{false, true} {
		base := t.TempDir()
		alpha, gamma := filepath.Join(base, "alpha"), filepath.Join(base, "gamma")
		testserver.WriteFiles(t, alpha, "a.txt", "alpha one", "other/old.txt", "old one")
		testserver.WriteFiles(t, gamma, "sub/x.txt", "x words", "sub/deep/y.txt", "y words")
		srv := testserver.Start(t)
		srv.IndexDir(alpha, 2)
		if replace {
			if err := os.RemoveAll(filepath.Join(alpha, "other")); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Rename(filepath.Join(gamma, "sub"), filepath.Join(alpha, "other2")); err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(alpha, "other2", "deep", "y.txt")
		testserver.Eventually(t, 10*time.Second, "nested file indexed (replace="+map[bool]string{true: "y", false: "n"}[replace]+")", func() bool {
			return srv.Get("/api/files/lookup?path="+url.QueryEscape(want)).Status == 200
		})
	}
}
