package app

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"trove/backend/core"
)

// The desktop entry that launches this app (build/linux) speaks every
// language of the UI, in the locale names desktop entries use (zh_CN), and
// stays valid.
func TestDesktopEntrySpeaksTheUILanguages(t *testing.T) {
	const entry = "../build/linux/dev.trove.Trove.desktop"
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	main, action, _ := strings.Cut(string(data), "[Desktop Action quick]")
	for _, l := range core.UILanguages {
		if l == "en" {
			continue
		}
		loc := strings.ReplaceAll(l, "-", "_")
		for _, key := range []string{"GenericName", "Comment", "Keywords"} {
			if !strings.Contains(main, "\n"+key+"["+loc+"]=") {
				t.Errorf("%s: no %s[%s]", entry, key, loc)
			}
		}
		if !strings.Contains(action, "\nName["+loc+"]=") {
			t.Errorf("%s: the quick search action has no Name[%s]", entry, loc)
		}
	}
	if path, err := exec.LookPath("desktop-file-validate"); err == nil {
		if out, err := exec.Command(path, entry).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("desktop-file-validate: %v %s", err, out)
		}
	} else {
		t.Log("desktop-file-validate is not installed (desktop-file-utils): the entry's syntax is not checked")
	}
}
