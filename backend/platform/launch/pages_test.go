package launch

import (
	"os"
	"strings"
	"testing"
	"time"

	"trove/internal/desktoptest"
)

// The default viewer for PDFs is started with its own page argument.
func TestOpenAtStartsTheViewerAtThePage(t *testing.T) {
	const path = "/home/me/docs/annual report.pdf"
	for _, c := range []struct{ prog, exec, want string }{
		{"evince", "%U", "--page-index=12|" + path},
		{"okular", "%U", "--page|12|" + path},
		{"zathura", "%U", "--page=12|" + path},
		{"atril", "%U", "--page-index=12|" + path},
		{"mupdf", "%f", path + "|12"},
		{"qpdfview", "--unique %F", "--unique|" + path + "#12"},
		{"evince", "--class=%c --zoom=100%% %U", "--class=Viewer|--zoom=100%|--page-index=12|" + path},
	} {
		t.Run(c.prog, func(t *testing.T) {
			v := desktoptest.PDFViewer(t, c.prog+"-test.desktop", c.prog, c.exec)
			if err := (Desktop{}).OpenAt(path, "application/pdf", 12); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(desktoptest.Ran(t, v.Argv), "|"); got != c.want {
				t.Errorf("%s ran with %q, want %q", c.prog, got, c.want)
			}
			if _, err := os.Stat(v.OpenerArgv); err == nil {
				t.Error("xdg-open ran too")
			}
		})
	}
}

// A viewer whose page argument is unknown, the first page, and a type
// with no default are opened as usual, by xdg-open.
func TestOpenAtFallsBackToTheOpener(t *testing.T) {
	const path = "/home/me/docs/report.pdf"
	for _, c := range []struct {
		name, prog, mime string
		page             int
	}{
		{"unknown viewer", "someviewer", "application/pdf", 3},
		{"first page", "evince", "application/pdf", 1},
		{"no default", "evince", "application/x-none", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := desktoptest.PDFViewer(t, "viewer.desktop", c.prog, "%U")
			if err := (Desktop{Settle: 50 * time.Millisecond}).OpenAt(path, c.mime, c.page); err != nil {
				t.Fatal(err)
			}
			if got := desktoptest.Ran(t, v.OpenerArgv); len(got) != 1 || got[0] != path {
				t.Errorf("xdg-open ran with %q", got)
			}
		})
	}
}
