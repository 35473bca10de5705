package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An application's command line for one file follows the Desktop Entry
// specification's field codes: a code may stand inside an argument, where
// it expands in place; %% is a literal %; deprecated codes go.
func TestExecFieldCodes(t *testing.T) {
	const path = "/home/me/a b%f.txt"
	const uri = "file:///home/me/a%20b%25f.txt"
	dir := t.TempDir()
	for _, c := range []struct{ exec, want string }{
		{`app --new %F`, "app|--new|" + path},
		{`app %f`, "app|" + path},
		{`app "--literal=%f"`, "app|--literal=" + path},
		{`app --literal=%f`, "app|--literal=" + path},
		{`app --open=%F`, "app|--open=" + path},
		{`app %U`, "app|" + uri},
		{`app --url=%u`, "app|--url=" + uri},
		{`app 100%% %f`, "app|100%|" + path},
		{`app --x=%%f %f`, "app|--x=%f|" + path},
		{`app %%%f`, "app|%" + path},
		{`app --title=%c %f`, "app|--title=Some App|" + path},
		{`app %k %f`, "app|" + filepath.Join(dir, "some.desktop") + "|" + path},
		{`app %i %f`, "app|--icon|some-icon|" + path},
		{`app %d %D %n %N %v %m -x`, "app|-x|" + path},
		{`app --dir=%d %f`, "app|--dir=|" + path},
		{`app`, "app|" + path},
		{`app 50%`, "app|50%|" + path},
	} {
		entry := filepath.Join(dir, "some.desktop")
		if err := os.WriteFile(entry, []byte("[Desktop Entry]\nType=Application\nName=Some App\nIcon=some-icon\nExec="+c.exec+"\nMimeType=text/plain;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		a, _, ok := readEntry(entry)
		if !ok {
			t.Fatalf("%s: entry not read", c.exec)
		}
		if got := a.command(path); !slices.Equal(got, strings.Split(c.want, "|")) {
			t.Errorf("Exec=%s: %q, want %q", c.exec, got, strings.Split(c.want, "|"))
		}
	}
}
