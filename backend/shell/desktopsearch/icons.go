package desktopsearch

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Icons come from the freedesktop naming rules, as file managers choose
// them: a MIME type's icon is its name with the slash made a dash
// (application/pdf: application-pdf), and when the theme lacks it, the
// type's generic icon, which shared-mime-info lists in generic-icons
// (application/vnd.oasis.opendocument.text: x-office-document), else its
// media's (image-x-generic). text-x-generic closes every list.

const lastResort = "text-x-generic"

// IconNames are the icon names for a MIME type, the most specific first.
func IconNames(mime string) []string {
	mime = strings.ToLower(strings.TrimSpace(mime))
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimSpace(mime[:i])
	}
	media, sub, ok := strings.Cut(mime, "/")
	if !ok || media == "" || sub == "" {
		return []string{lastResort}
	}
	names := []string{media + "-" + sub}
	if g := genericIcons()[mime]; g != "" {
		names = append(names, g)
	}
	switch media {
	case "text", "image", "audio", "video", "font":
		names = append(names, media+"-x-generic")
	}
	names = append(names, lastResort)
	out := names[:0]
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// genericIcons reads shared-mime-info's generic-icons files once: the
// user's data folder first, then the system's (XDG_DATA_DIRS), the first
// line for a type winning.
var genericIcons = onceGeneric()

func onceGeneric() func() map[string]string {
	return sync.OnceValue(func() map[string]string {
		out := map[string]string{}
		for _, dir := range dataDirs() {
			readGenericIcons(filepath.Join(dir, "mime", "generic-icons"), out)
		}
		return out
	})
}

func readGenericIcons(path string, into map[string]string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		mime, icon, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok || strings.HasPrefix(mime, "#") {
			continue
		}
		if _, seen := into[mime]; !seen {
			into[mime] = icon
		}
	}
}

// dataDirs are the XDG data folders, most personal first.
func dataDirs() []string {
	var dirs []string
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		dirs = append(dirs, d)
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share"))
	}
	sys := os.Getenv("XDG_DATA_DIRS")
	if sys == "" {
		sys = "/usr/local/share:/usr/share"
	}
	for _, d := range filepath.SplitList(sys) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// GIcon is names as GIO writes a themed icon with fallbacks
// (g_icon_to_string): the name alone, or ". GThemedIcon" and the names,
// which GNOME Shell reads back with g_icon_new_for_string.
func GIcon(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return ". GThemedIcon " + strings.Join(names, " ")
}

// themedIcon is the first of names that an installed icon theme draws
// (KRunner takes one name, with no fallbacks), else the first.
func (p *Providers) themedIcon(names []string) string {
	for _, n := range names {
		if p.icons.have(n) {
			return n
		}
	}
	return names[0]
}

// iconIndex remembers which icon names the installed themes draw.
type iconIndex struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (x *iconIndex) have(name string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if found, ok := x.seen[name]; ok {
		return found
	}
	if x.seen == nil {
		x.seen = map[string]bool{}
	}
	found := false
	for _, dir := range dataDirs() {
		// Both layouts themes use: Adwaita/16x16/mimetypes/NAME.png and
		// breeze/mimetypes/16/NAME.svg.
		for _, pattern := range []string{"*/*/mimetypes/" + name + ".*", "*/mimetypes/*/" + name + ".*"} {
			if m, _ := filepath.Glob(filepath.Join(dir, "icons", pattern)); len(m) > 0 {
				found = true
				break
			}
		}
		if found {
			break
		}
	}
	x.seen[name] = found
	return found
}
