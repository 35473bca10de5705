package embedding

import (
	"slices"
	"strings"
	"testing"
)

func runs(text string) []string {
	var out []string
	scan(text, func(r string) { out = append(out, r) })
	return out
}

func parts(run string) []string {
	var out []string
	splitRun(run, func(p string) { out = append(out, p) })
	return out
}

func TestScan(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hello, world!", []string{"Hello", "world"}},
		{"snake_case-and.dots", []string{"snake", "case", "and", "dots"}},
		{"naïve café x86_64", []string{"naïve", "café", "x86", "64"}},
		{"日本語 text", []string{"日", "本", "語", "text"}},
		{"don't", []string{"don", "t"}},
		{"tab\tnew\nline", []string{"tab", "new", "line"}},
	} {
		if got := runs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("scan(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitRun(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"word", []string{"word"}},
		{"camelCase", []string{"camel", "Case"}},
		{"getUserName", []string{"get", "User", "Name"}},
		{"HTTPServer", []string{"HTTP", "Server"}},
		{"parseHTTPResponse2", []string{"parse", "HTTP", "Response", "2"}},
		{"utf8", []string{"utf", "8"}},
		{"2nd", []string{"2", "nd"}},
		{"ABC", []string{"ABC"}},
		{"Éclair", []string{"Éclair"}},
		{"überGroß", []string{"über", "Groß"}},
	} {
		if got := parts(c.in); !slices.Equal(got, c.want) {
			t.Errorf("splitRun(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzSplitRun checks that splitting loses and adds nothing.
func FuzzSplitRun(f *testing.F) {
	for _, s := range []string{"getUserName", "HTTPServer2", "x86_64", "Ünïcödé", "aB1cD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		scan(text, func(run string) {
			ps := parts(run)
			if strings.Join(ps, "") != run {
				t.Fatalf("splitRun(%q) = %q", run, ps)
			}
			for _, p := range ps {
				if p == "" {
					t.Fatalf("splitRun(%q) gave an empty part", run)
				}
			}
		})
	})
}

func TestLowerHashMatchesIndex(t *testing.T) {
	ws := []string{"wing", "naïve", "straße"}
	x := newWordIndex(ws)
	for i, w := range ws {
		key, h := lowerHash(nil, strings.ToUpper(w[:1])+w[1:])
		if got, ok := x.lookup(key, h); !ok || int(got) != i {
			t.Errorf("lookup(%q) = %d, %v", key, got, ok)
		}
		if hashBytes([]byte(w)) != h {
			t.Errorf("hashBytes and lowerHash disagree on %q", w)
		}
	}
	if _, ok := x.lookup(lowerHash(nil, "wings")); ok {
		t.Error("found a word that is not there")
	}
}
