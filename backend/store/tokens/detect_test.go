package tokens

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// A manual page is told by its language, however long, and English
// option lists inside it do not outvote its prose.
func TestDetectTellsLongMixedTexts(t *testing.T) {
	// Options and paths of many letters make a long text's trigrams many,
	// as a manual page's are (told at once, its confidence fell below 0).
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 4+r.IntN(8))
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
	long := func(prose string) string {
		var b strings.Builder
		for b.Len() < 24<<10 {
			b.WriteString(prose)
			b.WriteString("\n\n")
			for range 3 {
				fmt.Fprintf(&b, "  --%s=%s  /usr/lib/%s/%s\n", word(), word(), word(), word())
			}
		}
		return b.String()
	}
	for _, c := range []struct{ want, text string }{
		{"de", long("Der Befehl ändert die Benutzerkennung und die Gruppenkennung. Wenn kein Benutzer angegeben ist, wird standardmäßig der Systemverwalter verwendet, und die Umgebungsvariablen werden aus der Datei gelesen, die der Verwalter festgelegt hat.")},
		{"pl", long("Polecenie zmienia identyfikator użytkownika i grupy. Jeżeli nie podano nazwy użytkownika, domyślnie używany jest administrator systemu, a zmienne środowiskowe są odczytywane z pliku wskazanego przez administratora.")},
		{"ru", long("Команда изменяет идентификатор пользователя и группы. Если имя пользователя не указано, по умолчанию используется суперпользователь, а переменные окружения читаются из файла, который указал администратор.")},
		{"fr", long("La commande change l'identifiant de l'utilisateur et du groupe. Si aucun utilisateur n'est indiqué, le superutilisateur est utilisé par défaut, et les variables d'environnement sont lues dans le fichier choisi par l'administrateur.")},
		{"en", "The command changes the user and group identity. When no user is given, the superuser is used by default."},
		{"ja", "このコマンドはユーザーとグループの識別子を変更します。"},
		{"", ""},
		{"", "-v -q --help 42"},
	} {
		if got := Detect(c.text); got != c.want {
			t.Errorf("Detect(%.40q… %d bytes) = %q, want %q", c.text, len(c.text), got, c.want)
		}
	}
}

// Pieces end at a space, never inside a character.
func TestCutAtSpace(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		want string
	}{
		{"alpha beta gamma", 12, "alpha beta "},
		{"alpha", 12, "alpha"},
		{"ééééé", 3, "é"},
		{"ééééé", 1, "é"},
		{"abcdefghij", 4, "abcd"},
	} {
		if got := cutAtSpace(c.text, c.n); got != c.want {
			t.Errorf("cutAtSpace(%q, %d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
}

// English yields to another language of a real share of the pieces.
func TestElected(t *testing.T) {
	for _, c := range []struct {
		votes map[string]int
		want  string
	}{
		{map[string]int{}, ""},
		{map[string]int{"de": 3, "en": 1}, "de"},
		{map[string]int{"en": 6, "ru": 3}, "ru"},
		{map[string]int{"en": 7, "ru": 3}, "en"},
		{map[string]int{"en": 2, "fr": 1}, "en"},
		{map[string]int{"en": 12, "fr": 1, "la": 1}, "en"},
		{map[string]int{"es": 2, "pt": 2}, "es"},
	} {
		if got := elected(c.votes); got != c.want {
			t.Errorf("elected(%v) = %q, want %q", c.votes, got, c.want)
		}
	}
}

// Any text gets a language code or none, and its pieces cover it whole:
// cutting never splits a character or loses a byte.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{"", "Der Befehl ändert die Kennung.", "東京都に住む", "é", "\xff\xfe abc", strings.Repeat("Les fichiers ", 200)} {
		f.Add(s, 7)
	}
	f.Add(strings.Repeat("Die Datei wurde gelöscht; ", 700), 3) // past the sample: pieces spread
	f.Fuzz(func(t *testing.T, s string, n int) {
		if lang := Detect(s); lang != "" && (len(lang) < 2 || len(lang) > 3) {
			t.Fatalf("Detect(%q) = %q, not a language code", s, lang)
		}
		ps := pieces(s)
		if len(ps) > detectPieces && len(s) > detectPieces*detectPiece {
			t.Fatalf("%d pieces of %d bytes, want at most %d", len(ps), len(s), detectPieces)
		}
		for _, p := range ps {
			if p == "" || !strings.Contains(s, p) || utf8.ValidString(s) && !utf8.ValidString(p) {
				t.Fatalf("piece %q of %q: empty, not of the text, or split a character", p, s)
			}
		}
		n = 1 + abs(n)%64
		var joined strings.Builder
		for rest := s; rest != ""; {
			piece := cutAtSpace(rest, n)
			if piece == "" {
				t.Fatalf("cutAtSpace(%q, %d) is empty", rest, n)
			}
			if utf8.ValidString(rest) && !utf8.ValidString(piece) {
				t.Fatalf("cutAtSpace(%q, %d) = %q splits a character", rest, n, piece)
			}
			joined.WriteString(piece)
			rest = rest[len(piece):]
		}
		if joined.String() != s {
			t.Fatalf("pieces of %q join to %q", s, joined.String())
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
