package desktopsearch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestIconNamesGoFromTheTypeToItsGenericIcon(t *testing.T) {
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "mime"), 0o755); err != nil {
		t.Fatal(err)
	}
	generic := "application/vnd.oasis.opendocument.text:x-office-document\n"
	if err := os.WriteFile(filepath.Join(data, "mime", "generic-icons"), []byte(generic), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("XDG_DATA_DIRS", data)
	for mime, want := range map[string][]string{
		"application/vnd.oasis.opendocument.text": {"application-vnd.oasis.opendocument.text", "x-office-document", "text-x-generic"},
		"application/pdf":                         {"application-pdf", "text-x-generic"},
		"image/png":                               {"image-png", "image-x-generic", "text-x-generic"},
		"text/plain; charset=utf-8":               {"text-plain", "text-x-generic"},
		"":                                        {"text-x-generic"},
		"nonsense":                                {"text-x-generic"},
	} {
		genericIcons = onceGeneric() // read this test's files
		if got := IconNames(mime); !slices.Equal(got, want) {
			t.Errorf("IconNames(%q) = %v, want %v", mime, got, want)
		}
	}
	if got := GIcon([]string{"text-x-generic"}); got != "text-x-generic" {
		t.Errorf("GIcon of one name = %q", got)
	}
	if got := GIcon([]string{"application-pdf", "text-x-generic"}); got != ". GThemedIcon application-pdf text-x-generic" {
		t.Errorf("GIcon of two names = %q", got)
	}
}
