package extract

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// CHM help files are read with chmlib's programs (Debian's libchm-bin):
// enum_chmLib lists the pages with their sizes, which are checked against
// the archive limits before extract_chmLib writes them into a temporary
// folder (it writes exactly those sizes). The pages are read as HTML in
// the order of the table of contents (.hhc), the others after them.

// chmEntry is one object of a CHM's directory.
type chmEntry struct {
	name string
	size int64
}

func extractCHM(s *source, d *Document) error {
	for _, tool := range []string{"enum_chmLib", "extract_chmLib"} {
		if _, err := exec.LookPath(tool); err != nil {
			return toolMissing("CHM help pages", tool, "libchm-bin")
		}
	}
	return inTempCopy(s, "in.chm", func(dir, in string) error {
		list, _, err := runCapped(s.ctx, 16<<20, "enum_chmLib", in)
		if err != nil {
			return err
		}
		entries, total := chmEntries(list)
		switch {
		case len(entries) > zipMaxEntries:
			return warnf("CHM file has more than %d entries: contents not indexed", zipMaxEntries)
		case total > min(zipMaxTotal, s.size*zipMaxRatio+zipRatioSlack):
			return warnf("CHM file expands more than %d times (a compression bomb?): contents not indexed", zipMaxRatio)
		}
		out := filepath.Join(dir, "out")
		if _, _, err := runCapped(s.ctx, 64<<10, "extract_chmLib", in, out); err != nil {
			return err
		}
		return chmPages(s, d, out, entries)
	})
}

// chmEntries reads enum_chmLib's listing: space, start, length, type and
// name; the total counts every file, which is what extraction writes.
func chmEntries(list []byte) (entries []chmEntry, total int64) {
	sc := bufio.NewScanner(bytes.NewReader(list))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[len(f)-2] != "file" {
			continue
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || size < 0 {
			continue
		}
		name := f[len(f)-1]
		total += size
		if strings.HasPrefix(name, "/") && !strings.HasPrefix(name, "/#") && !strings.HasPrefix(name, "/$") {
			entries = append(entries, chmEntry{name: name, size: size})
		}
	}
	return entries, total
}

// chmPages writes the pages' text, table of contents order first.
func chmPages(s *source, d *Document, out string, entries []chmEntry) error {
	var pages []string
	sizes := map[string]int64{}
	for _, e := range entries {
		sizes[strings.ToLower(path.Clean(e.name))] = e.size
		switch strings.ToLower(path.Ext(e.name)) {
		case ".htm", ".html":
			pages = append(pages, e.name)
		case ".hhc":
			pages = append(chmContents(out, e.name), pages...)
		}
	}
	seen := map[string]bool{}
	tk := tick{ctx: s.ctx}
	var firstErr error
	missing := 0
	for _, p := range pages {
		key := strings.ToLower(path.Clean("/" + p))
		if seen[key] || s.text.full() {
			continue
		}
		seen[key] = true
		if err := tk.err(); err != nil {
			return err
		}
		got, err := chmPage(s, d, filepath.Join(out, filepath.FromSlash(path.Clean("/"+p))))
		if errors.Is(err, os.ErrNotExist) || got < sizes[key] {
			missing++
		} else if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	switch {
	case len(seen) == 0:
		return warning("CHM file without HTML pages: contents not indexed")
	case missing > 0 && firstErr == nil:
		return warnf("damaged CHM file: %d of %d pages missing or cut short", missing, len(seen))
	}
	return firstErr
}

// chmPage writes one page and returns its size: extract_chmLib leaves a
// page that the file cuts short shorter than listed.
func chmPage(s *source, d *Document, file string) (int64, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	s.text.nl()
	s.text.WriteString("\n")
	page, err := htmlText(s.ctx, io.LimitReader(f, int64(markupBudget(s))), s.text)
	if d.Title == "" {
		d.Title = page.title
	}
	return st.Size(), err
}

// chmContents lists the pages a table of contents names, in its order.
func chmContents(out, name string) []string {
	data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(path.Clean("/"+name))))
	if err != nil {
		return nil
	}
	var pages []string
	// ASCII only: the offsets must stay those of data.
	low := bytes.Clone(data)
	for i, c := range low {
		if c >= 'A' && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	for {
		i := bytes.Index(low, []byte(`name="local"`))
		if i < 0 {
			return pages
		}
		low, data = low[i:], data[i:]
		v := bytes.Index(low, []byte(`value="`))
		end := bytes.IndexByte(low[max(v, 0)+7:], '"')
		if v < 0 || end < 0 {
			return pages
		}
		local, _, _ := strings.Cut(string(data[v+7:v+7+end]), "#")
		pages = append(pages, "/"+strings.TrimPrefix(local, "/"))
		low, data = low[v+7+end:], data[v+7+end:]
	}
}
