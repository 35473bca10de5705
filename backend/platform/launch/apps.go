package launch

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// App is a desktop application that says it opens a type of file (a
// freedesktop .desktop entry with the type in its MimeType).
type App struct {
	ID   string // the entry's file name, such as org.gnome.TextEditor.desktop
	Name string
	exec []string
}

// appDirs are where .desktop entries live, most personal first.
func appDirs() []string {
	home := os.Getenv("XDG_DATA_HOME")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".local", "share")
		}
	}
	dirs := os.Getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	out := []string{}
	if home != "" {
		out = append(out, filepath.Join(home, "applications"))
	}
	for _, d := range filepath.SplitList(dirs) {
		if d != "" {
			out = append(out, filepath.Join(d, "applications"))
		}
	}
	return out
}

// Apps lists the applications that open mime, by name; an entry in a
// more personal folder hides one of the same ID further down.
func (d Desktop) Apps(mime string) ([]App, error) {
	seen := map[string]bool{}
	var out []App
	for _, dir := range appDirs() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".desktop") || seen[e.Name()] {
				continue
			}
			seen[e.Name()] = true
			a, mimes, ok := readEntry(filepath.Join(dir, e.Name()))
			if ok && mime != "" && slices.Contains(mimes, mime) {
				a.ID = e.Name()
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(a, b App) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return out, nil
}

// readEntry reads the [Desktop Entry] group of a .desktop file: an
// application that is shown and can be run with a file.
func readEntry(path string) (App, []string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return App{}, nil, false
	}
	defer f.Close()
	var a App
	var mimes []string
	var typ, execLine string
	hidden := false
	group := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") {
			group = l
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if group != "[Desktop Entry]" || !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Type":
			typ = v
		case "Name":
			a.Name = v
		case "Exec":
			execLine = v
		case "MimeType":
			mimes = strings.FieldsFunc(v, func(r rune) bool { return r == ';' })
		case "NoDisplay", "Hidden":
			hidden = hidden || v == "true"
		}
	}
	a.exec = splitExec(execLine)
	return a, mimes, typ == "Application" && !hidden && a.Name != "" && len(a.exec) > 0
}

// splitExec splits an Exec value into arguments: spaces separate them,
// double quotes group them, a backslash escapes the next character.
func splitExec(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, have := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			have = true
		case c == '"':
			quoted, have = !quoted, true
		case c == ' ' && !quoted:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

// command is the app's command line for one file: %f and %F become the
// path, %u and %U its file: URL, other field codes go, and the path is
// added at the end when the line names no file.
func (a App) command(path string) []string {
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	var out []string
	used := false
	for _, arg := range a.exec {
		switch arg {
		case "%f", "%F":
			out, used = append(out, path), true
			continue
		case "%u", "%U":
			out, used = append(out, uri), true
			continue
		case "%i", "%c", "%k", "%d", "%D", "%n", "%N", "%v", "%m":
			continue
		}
		out = append(out, strings.ReplaceAll(arg, "%%", "%"))
	}
	if !used {
		out = append(out, path)
	}
	return out
}

// OpenWith opens path with the application id, which must be one that
// opens mime: no other program can be started this way.
func (d Desktop) OpenWith(id, mime, path string) error {
	apps, err := d.Apps(mime)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(apps, func(a App) bool { return a.ID == id })
	if i < 0 {
		return fmt.Errorf("%s does not open %s files", id, mime)
	}
	argv := apps[i].command(path)
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s with %s: %w", path, apps[i].Name, err)
	}
	go cmd.Wait() // reap it whenever the application exits
	return nil
}
