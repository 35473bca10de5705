package launch

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
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
	icon string // the Icon key, for %i
	file string // the entry's own path, for %k
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
	a := App{file: path}
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
		case "Icon":
			a.icon = v
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

// command is the app's command line for one file, by the Desktop Entry
// specification's field codes: %f and %F become the path, %u and %U its
// file: URL, %c the name, %k the entry's path, %i "--icon ICON", %% a
// literal %, and the deprecated codes nothing. A code may stand inside an
// argument ("--file=%f"), where it expands in place. The path is added at
// the end when the line names no file.
func (a App) command(path string) []string {
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	var out []string
	named := false
	for _, arg := range a.exec {
		if arg == "%i" {
			if a.icon != "" {
				out = append(out, "--icon", a.icon)
			}
			continue
		}
		s, file := a.expand(arg, path, uri)
		named = named || file
		if s == "" && isFieldCode(arg) {
			continue // a code that stood alone and expands to nothing
		}
		out = append(out, s)
	}
	if !named {
		out = append(out, path)
	}
	return out
}

// expand expands the field codes of one argument in a single pass (a path
// holding "%f" is not expanded again), and reports whether it named the
// file. A % before anything that is not a code is kept as written.
func (a App) expand(arg, path, uri string) (string, bool) {
	var b strings.Builder
	file := false
	for i := 0; i < len(arg); i++ {
		if arg[i] != '%' || i+1 == len(arg) {
			b.WriteByte(arg[i])
			continue
		}
		i++
		switch arg[i] {
		case 'f', 'F':
			b.WriteString(path)
			file = true
		case 'u', 'U':
			b.WriteString(uri)
			file = true
		case 'c':
			b.WriteString(a.Name)
		case 'k':
			b.WriteString(a.file)
		case '%':
			b.WriteByte('%')
		case 'd', 'D', 'n', 'N', 'v', 'm', 'i': // deprecated; %i only stands alone
		default:
			b.WriteByte('%')
			b.WriteByte(arg[i])
		}
	}
	return b.String(), file
}

// isFieldCode reports whether arg is one field code standing alone.
func isFieldCode(arg string) bool {
	return len(arg) == 2 && arg[0] == '%' && strings.IndexByte("fFuUckidDnNvm", arg[1]) >= 0
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
	if err := start(apps[i].command(path)); err != nil {
		return fmt.Errorf("open %s with %s: %w", path, apps[i].Name, err)
	}
	return nil
}
