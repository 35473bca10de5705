package api_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"trove/internal/testserver"
)

func encode(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLegacyCharsetFiles: a Windows-1251 file is found by a Russian word
// of its body, and a Shift-JIS file's title and snippet show its Japanese.
func TestLegacyCharsetFiles(t *testing.T) {
	s := testserver.Start(t)
	root := t.TempDir()
	testserver.WriteFiles(t, root,
		"ru/otchet.txt", encode(t, charmap.Windows1251, "Отчёт смотрителя\n\nСмотритель маяка хранил атласы, таблицы приливов и детективные романы в маленькой библиотеке."),
		"ja/toudai.txt", encode(t, japanese.ShiftJIS, "灯台守の記録\n\nLighthouse keeper notes: 灯台守の小屋には小さな図書館があった。"),
	)
	s.IndexDir(root, 2)

	top := first(t, post(t, s, map[string]any{"query": "библиотеке"}))
	file := top["file"].(map[string]any)
	if got := file["file_path"].(string); got != filepath.Join(root, "ru/otchet.txt") {
		t.Errorf("Russian word found %s", got)
	}

	top = first(t, post(t, s, map[string]any{"query": "lighthouse keeper"}))
	file = top["file"].(map[string]any)
	snippet, _ := top["snippet"].(string)
	title, _ := file["title"].(string)
	if !strings.Contains(snippet, "灯台守の小屋") || !strings.Contains(title, "灯台守") {
		t.Errorf("title %q snippet %q", title, snippet)
	}
}
