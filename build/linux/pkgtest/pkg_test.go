//go:build packagetest

package pkgtest

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var arches = map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}

// deb is the one package of arch in $TROVE_PKG_DIR.
func deb(t *testing.T, arch string) string {
	t.Helper()
	dir := os.Getenv("TROVE_PKG_DIR")
	if dir == "" {
		t.Fatal("TROVE_PKG_DIR is not set (run make package-test)")
	}
	found, _ := filepath.Glob(filepath.Join(dir, "trove_*_"+arch+".deb"))
	if len(found) != 1 {
		t.Fatalf("want one %s package in %s, found %v", arch, dir, found)
	}
	return found[0]
}

// run runs a command and returns its combined output, failing on error.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func field(t *testing.T, pkg, name string) string {
	return strings.TrimSpace(run(t, "dpkg-deb", "--field", pkg, name))
}

var iconSizes = []int{16, 22, 24, 32, 48, 64, 128, 256, 512}

func wantedFiles() []string {
	files := []string{
		"/usr/bin/trove", "/usr/bin/trove-desktop",
		"/usr/share/applications/dev.trove.Trove.desktop",
		"/usr/share/metainfo/dev.trove.Trove.metainfo.xml",
		"/usr/share/icons/hicolor/scalable/apps/dev.trove.Trove.svg",
		"/usr/lib/systemd/user/trove.service",
		"/usr/share/man/man1/trove.1.gz", "/usr/share/man/man1/trove-desktop.1.gz",
		"/usr/share/doc/trove/copyright", "/usr/share/doc/trove/changelog.gz",
		"/usr/share/lintian/overrides/trove",
		// Desktop search and the file managers (docs/integrations.md).
		"/usr/share/gnome-shell/search-providers/dev.trove.Trove.search-provider.ini",
		"/usr/share/dbus-1/services/dev.trove.Trove.Search.service",
		"/usr/share/krunner/dbusplugins/dev.trove.Trove.desktop",
		"/usr/share/kio/servicemenus/dev.trove.Trove.desktop",
		"/usr/share/nautilus-python/extensions/trove.py",
		"/usr/share/Thunar/uca.d/trove.xml",
		"/usr/lib/trove/thunar-add-action",
	}
	for _, s := range iconSizes {
		files = append(files, fmt.Sprintf("/usr/share/icons/hicolor/%dx%d/apps/dev.trove.Trove.png", s, s))
	}
	return files
}

func TestPackageFields(t *testing.T) {
	var depends []string
	for arch := range arches {
		pkg := deb(t, arch)
		if got := field(t, pkg, "Package"); got != "trove" {
			t.Errorf("%s: Package %q", arch, got)
		}
		if got := field(t, pkg, "Architecture"); got != arch {
			t.Errorf("%s: Architecture %q", arch, got)
		}
		d := field(t, pkg, "Depends")
		for _, lib := range []string{"libc6", "libgtk-3-0", "libwebkit2gtk-4.1-0"} {
			if !strings.Contains(d, lib) {
				t.Errorf("%s: Depends %q lacks %s", arch, d, lib)
			}
		}
		depends = append(depends, d)
	}
	if depends[0] != depends[1] {
		t.Errorf("the architectures depend on different packages: %q", depends)
	}
}

// The package runs no script at install, upgrade or removal: nothing of it
// can touch a user's index or settings.
func TestNoMaintainerScripts(t *testing.T) {
	for arch := range arches {
		names := tarNames(t, exec.Command("dpkg-deb", "--ctrl-tarfile", deb(t, arch)))
		for _, n := range names {
			if base := filepath.Base(n); base != "control" && base != "md5sums" && base != "." {
				t.Errorf("%s: the control archive holds %s", arch, n)
			}
		}
	}
}

func TestPackageContents(t *testing.T) {
	for arch, machine := range arches {
		t.Run(arch, func(t *testing.T) {
			root := t.TempDir()
			run(t, "dpkg-deb", "--extract", deb(t, arch), root)
			for _, f := range wantedFiles() {
				if _, err := os.Lstat(filepath.Join(root, f)); err != nil {
					t.Errorf("missing %s", f)
				}
			}
			trove := elfOf(t, filepath.Join(root, "usr/bin/trove"), machine)
			if slices.ContainsFunc(trove.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP }) {
				t.Error("trove is dynamically linked; it is built without cgo")
			}
			desktop := elfOf(t, filepath.Join(root, "usr/bin/trove-desktop"), machine)
			libs, err := desktop.ImportedLibraries()
			if err != nil {
				t.Fatal(err)
			}
			for _, lib := range []string{"libgtk-3.so.0", "libwebkit2gtk-4.1.so.0"} {
				if !slices.Contains(libs, lib) {
					t.Errorf("trove-desktop does not link %s: %v", lib, libs)
				}
			}
			for _, s := range iconSizes {
				checkIcon(t, filepath.Join(root, fmt.Sprintf("usr/share/icons/hicolor/%dx%d/apps/dev.trove.Trove.png", s, s)), s)
			}
		})
	}
}

func elfOf(t *testing.T, path string, machine elf.Machine) *elf.File {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if f.Machine != machine {
		t.Errorf("%s is for %s, want %s", path, f.Machine, machine)
	}
	return f
}

func checkIcon(t *testing.T, path string, size int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != size || cfg.Height != size {
		t.Errorf("%s: %dx%d (%v), want %dx%d", path, cfg.Width, cfg.Height, err, size, size)
	}
}

// Lintian finds no error or warning beyond the overrides the package
// carries (build/linux/lintian-overrides, each with its reason).
// The two run side by side: lintian takes a minute or more per package.
func TestLintian(t *testing.T) {
	for arch := range arches {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("lintian", "--fail-on", "error,warning", "--display-level", ">=warning", deb(t, arch)).CombinedOutput()
			if err != nil {
				t.Errorf("lintian: %v\n%s", err, out)
			}
			if strings.Contains(string(out), "W: ") || strings.Contains(string(out), "E: ") {
				t.Errorf("lintian:\n%s", out)
			}
		})
	}
}

func tarNames(t *testing.T, cmd *exec.Cmd) []string {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	var names []string
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}
