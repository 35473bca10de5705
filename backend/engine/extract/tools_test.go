package extract

import (
	"os/exec"
	"strings"
	"testing"
)

func needTool(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

func TestDjVu(t *testing.T) {
	needTool(t, "djvutxt")
	doc := extractBytes(t, "writer.djvu", fixtureBytes(t, "writer.djvu"), Options{})
	checkDoc(t, doc, fixture{file: "writer.djvu", format: "djvu", words: []string{"quokkaloaf", "naïve café", "Observations at Dawn"}})
	doc = extractBytes(t, "writer-noext", fixtureBytes(t, "writer.djvu"), Options{})
	if doc.Format != "djvu" || !strings.Contains(doc.Text, "quokkaloaf") {
		t.Errorf("without extension: %+v", doc)
	}
	data := fixtureBytes(t, "writer.djvu")
	for _, n := range []int{16, len(data) / 2} {
		doc := extractBytes(t, "cut.djvu", data[:n], Options{})
		if doc.Warning == "" || doc.Format != "djvu" {
			t.Errorf("cut at %d: %+v", n, doc)
		}
	}
}

func TestCHM(t *testing.T) {
	needTool(t, "enum_chmLib", "extract_chmLib")
	doc := extractBytes(t, "help.chm", fixtureBytes(t, "help.chm"), Options{})
	checkDoc(t, doc, fixture{file: "help.chm", format: "chm", title: "Numbat Help",
		words: []string{"numbatnectar page explains termites.\n\nSecond page about bilbyballad"}, absent: []string{"<p>", "Local"}})
	data := fixtureBytes(t, "help.chm")
	for _, n := range []int{8, 200, len(data) / 2} {
		doc := extractBytes(t, "cut.chm", data[:n], Options{})
		if doc.Warning == "" || doc.Format != "chm" {
			t.Errorf("cut at %d: %+v", n, doc)
		}
	}
}

// Sizes are checked from the listing before anything is written.
func TestCHMListingLimits(t *testing.T) {
	list := []byte(` spc    start   length   type			name
   0        0        0   normal dir		/
   1     2751      133   normal file		/a.html
   1        0 9000000000   normal file		/zeros.html
   0     4361       60   meta file		::DataSpace/NameList
`)
	entries, total := chmEntries(list)
	if len(entries) != 2 || total != 9000000193 || entries[0].name != "/a.html" {
		t.Errorf("%v %d", entries, total)
	}
}

func TestToolMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for name, want := range map[string]string{
		"writer.djvu": "DjVu text not indexed: djvutxt (Debian's djvulibre-bin) is not installed",
		"help.chm":    "CHM help pages not indexed: enum_chmLib (Debian's libchm-bin) is not installed",
	} {
		doc := extractBytes(t, name, fixtureBytes(t, name), Options{})
		if doc.Warning != want || doc.Text != "" {
			t.Errorf("%s: %+v", name, doc)
		}
	}
}
