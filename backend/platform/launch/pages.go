package launch

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The desktop's opener (xdg-open) has no way to say which page to show,
// but the document viewers each have one on their command line. A file is
// opened at a page by starting the viewer the desktop chose for its type
// (xdg-mime's default) with its own page argument, when it is one of
// these; otherwise it is opened as usual, at its first page.

// pageArgs gives a viewer's arguments to show a file at a page (from 1).
type pageArgs func(path, page string) []string

// joined is a viewer whose option holds the page: --page-index=12.
func joined(option string) pageArgs {
	return func(path, page string) []string { return []string{option + page, path} }
}

// pageViewers are the viewers whose page argument is known, by program name.
var pageViewers = map[string]pageArgs{
	"evince":   joined("--page-index="), // atril and xreader are evince's forks
	"atril":    joined("--page-index="),
	"xreader":  joined("--page-index="),
	"zathura":  joined("--page="),
	"okular":   func(path, page string) []string { return []string{"--page", page, path} },
	"mupdf":    func(path, page string) []string { return []string{path, page} },
	"mupdf-gl": func(path, page string) []string { return []string{path, page} },
	"qpdfview": func(path, page string) []string { return []string{path + "#" + page} },
}

// OpenAt opens path at page (from 1) with the default application for
// mime when that is a viewer whose page argument is known; otherwise, or
// for page 1 or less, or with an opener of Trove's own configured (which
// replaces the desktop's choices), it opens path as Open does.
func (d Desktop) OpenAt(path, mime string, page int) error {
	if page > 1 && d.opener() == defaultOpener {
		if argv := viewerAt(mime, path, page); argv != nil && start(argv) == nil {
			return nil
		}
	}
	return d.Open(path)
}

// viewerAt is the command line of the default application for mime
// showing path at page, or nil when there is none or it is no viewer of
// pageViewers.
func viewerAt(mime, path string, page int) []string {
	app, ok := defaultApp(mime)
	if !ok {
		return nil
	}
	args := pageViewers[filepath.Base(app.exec[0])]
	if args == nil {
		return nil
	}
	// The entry's own options stay (qpdfview --unique, --title=100%% as
	// --title=100%); the arguments that name the file go, as the viewer's
	// page arguments name it.
	argv := []string{app.exec[0]}
	for _, a := range app.exec[1:] {
		if arg, file := app.expand(a, "", ""); !file && arg != "" {
			argv = append(argv, arg)
		}
	}
	return append(argv, args(path, strconv.Itoa(page))...)
}

// defaultApp is the application the desktop opens mime with, as xdg-mime
// names it, read from its desktop entry.
func defaultApp(mime string) (App, bool) {
	if mime == "" {
		return App{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), revealWait)
	defer cancel()
	out, err := exec.CommandContext(ctx, "xdg-mime", "query", "default", mime).Output()
	id := strings.TrimSpace(string(out))
	if err != nil || !strings.HasSuffix(id, ".desktop") || strings.ContainsAny(id, `/\`) {
		return App{}, false
	}
	for _, dir := range appDirs() {
		if a, _, ok := readEntry(filepath.Join(dir, id)); ok {
			return a, true
		}
	}
	return App{}, false
}

// start starts argv and leaves the application running; it is reaped
// whenever it exits.
func start(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
