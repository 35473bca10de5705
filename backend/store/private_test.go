//go:build unix

package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The index holds the text of every indexed file, files of mode 0600
// included: its files are the user's alone, whatever the umask, for a new
// index and for one made before under another umask.
func TestTheIndexFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, c := range []struct{ name, dir string }{{"new index", t.TempDir()}, {"index made 0644", dir}} {
		t.Run(c.name, func(t *testing.T) {
			if c.dir == dir { // as an older Trove left it
				for _, name := range []string{FileName, FileName + "-wal"} {
					if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			s, err := Open(c.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			d, err := s.AddDirectory(ctx, "/notes", true, "", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.PutDocument(ctx, doc(d.ID, "/secret.txt", "the text of a private file")); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
				st, err := os.Stat(filepath.Join(c.dir, name))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if m := st.Mode().Perm(); m != 0o600 {
					t.Errorf("%s has mode %04o, want 0600", name, m)
				}
			}
		})
	}
}
