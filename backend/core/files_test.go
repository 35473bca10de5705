package core

import (
	"testing"
	"time"
)

func TestExtensionOf(t *testing.T) {
	for name, want := range map[string]string{
		"Report.PDF": ".pdf", "a.tar.gz": ".gz", ".bashrc": "", "README": "",
		"/home/me/.bashrc": "", "/home/me/notes.Txt": ".txt", "": "", "dir.d/file": "",
	} {
		if got := ExtensionOf(name); got != want {
			t.Errorf("ExtensionOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestCreatedOrFallsBackToModified(t *testing.T) {
	birth, mod := time.Unix(100, 0), time.Unix(200, 0)
	if got := CreatedOr(birth, mod); !got.Equal(birth) {
		t.Errorf("with a birth time: %v, want %v", got, birth)
	}
	if got := CreatedOr(time.Time{}, mod); !got.Equal(mod) {
		t.Errorf("without one: %v, want %v", got, mod)
	}
}
