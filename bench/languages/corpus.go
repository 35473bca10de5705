package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// language is one language of the corpus: its code, the folder of its
// manual pages below /usr/share/man, and for the inflection kind the word
// list of its forms (Debian's w* packages) and its Hunspell dictionary.
type language struct {
	Code, ManDir, Words, Hunspell string
}

// languages are the corpus's languages; English is the control.
var languages = []language{
	{"en", "", "", ""},
	{"de", "de", "/usr/share/dict/ngerman", "de_DE"},
	{"fr", "fr", "/usr/share/dict/french", "fr_FR"},
	{"es", "es", "/usr/share/dict/spanish", "es_ES"},
	{"it", "it", "/usr/share/dict/italian", "it_IT"},
	{"pl", "pl", "/usr/share/dict/polish", "pl_PL"},
	{"pt", "pt_BR", "/usr/share/dict/brazilian", "pt_BR"},
	{"ru", "ru", "", ""},
	{"ja", "ja", "", ""},
	{"zh", "zh_CN", "", ""},
}

// doc is one rendered manual page.
type doc struct {
	Lang string
	Rel  string // lang/section/name.txt below the corpus root
	Text string
	src  string // the manual page it is rendered from
}

// buildCorpus renders manual pages of each language as text into cache
// (once: pages already rendered are read back) and writes up to per of
// them into root, afresh. Pages are taken evenly from each language's
// sorted list, so the choice is the same on every machine with the same
// packages.
func buildCorpus(root, cache string, per int) ([]doc, error) {
	var jobs []doc
	for _, l := range languages {
		pages, err := manPages(l)
		if err != nil {
			return nil, err
		}
		for _, p := range spread(pages, per*2) { // twice: short pages are dropped
			base := strings.TrimSuffix(filepath.Base(p), ".gz")
			jobs = append(jobs, doc{Lang: l.Code, Rel: filepath.Join(l.Code, filepath.Base(filepath.Dir(p)), base+".txt"), src: p})
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				text, err := rendered(cache, jobs[i].Rel, jobs[i].src)
				if err == nil {
					mu.Lock()
					jobs[i].Text = text
					mu.Unlock()
				}
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := os.RemoveAll(root); err != nil {
		return nil, err
	}
	count := map[string]int{}
	var out []doc
	for _, d := range jobs {
		if len(strings.Fields(d.Text)) < 150 && !cjkHeavy(d.Text) || count[d.Lang] >= per {
			continue
		}
		count[d.Lang]++
		out = append(out, d)
		dst := filepath.Join(root, d.Rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, []byte(d.Text), 0o644); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// manPages lists the language's manual pages (sections 1, 5, 8).
func manPages(l language) ([]string, error) {
	dir := filepath.Join("/usr/share/man", l.ManDir)
	var out []string
	for _, sec := range []string{"man1", "man5", "man8"} {
		err := filepath.WalkDir(filepath.Join(dir, sec), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a section this language lacks
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".gz") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// spread takes n items evenly from list.
func spread(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, list[i*len(list)/n])
	}
	return out
}

// rendered is the text of the manual page src, rendered by man(1) into
// cache/rel the first time.
func rendered(cache, rel, src string) (string, error) {
	dst := filepath.Join(cache, rel)
	if b, err := os.ReadFile(dst); err == nil {
		return string(b), nil
	}
	cmd := exec.Command("man", "-l", "-E", "UTF-8", "--nh", "--nj", src)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "LC_ALL=C.UTF-8", "MAN_KEEP_FORMATTING=")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil || !utf8.Valid(out.Bytes()) {
		return "", fmt.Errorf("render %s: %v", src, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	return out.String(), os.WriteFile(dst, out.Bytes(), 0o644)
}
