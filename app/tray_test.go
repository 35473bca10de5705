package app

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"trove/backend/core"
)

func TestStatusLine(t *testing.T) {
	en, de, ru := trayTexts["en"], trayTexts["de"], trayTexts["ru"]
	cases := []struct {
		tx    trayText
		tag   string
		files int64
		q     core.QueueStatus
		want  string
	}{
		{en, "en", 0, core.QueueStatus{}, "0 files indexed · up to date"},
		{en, "en", 1, core.QueueStatus{}, "1 file indexed · up to date"},
		{en, "en", 12408, core.QueueStatus{Total: 3}, "12,408 files indexed · 3 queued"},
		{en, "en", 1234567, core.QueueStatus{Total: 1000, Paused: true, PausedManually: true}, "1,234,567 files indexed · 1,000 queued · paused"},
		{en, "en", 5, core.QueueStatus{Total: 2, Paused: true, PausedByScheduler: true}, "5 files indexed · 2 queued · held by schedule"},
		{de, "de", 12408, core.QueueStatus{Total: 1}, "12.408 Dateien indexiert · 1 in der Warteschlange"},
		{de, "de", 1, core.QueueStatus{}, "1 Datei indexiert · aktuell"},
		// Russian counts take one of three forms.
		{ru, "ru", 1, core.QueueStatus{}, "1 файл проиндексирован · всё актуально"},
		{ru, "ru", 22, core.QueueStatus{}, "22 файла проиндексировано · всё актуально"},
		{ru, "ru", 25, core.QueueStatus{Total: 2, Paused: true, PausedManually: true}, "25 файлов проиндексировано · в очереди: 2 · приостановлено"},
		{ru, "ru", 111, core.QueueStatus{}, "111 файлов проиндексировано · всё актуально"},
	}
	for _, c := range cases {
		if got := statusLine(c.tx, language.MustParse(c.tag), c.files, c.q); got != c.want {
			t.Errorf("statusLine(%s, %d, %+v) = %q, want %q", c.tag, c.files, c.q, got, c.want)
		}
	}
}

func TestPauseLabelFollowsTheManualPause(t *testing.T) {
	en := trayTexts["en"]
	if got := pauseLabel(en, core.QueueStatus{}); got != labelPause {
		t.Errorf("running: %q", got)
	}
	if got := pauseLabel(en, core.QueueStatus{Paused: true, PausedManually: true}); got != labelResume {
		t.Errorf("paused: %q", got)
	}
	// A scheduler hold is not undone from the tray: the item still pauses.
	if got := pauseLabel(en, core.QueueStatus{Paused: true, PausedByScheduler: true}); got != labelPause {
		t.Errorf("held by the scheduler: %q", got)
	}
}

// The setting wins; "" follows the session's locale as setlocale reads it.
func TestTrayLanguage(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	cases := []struct {
		setting string
		env     map[string]string
		want    string
	}{
		{"ja", map[string]string{"LANG": "de_DE.UTF-8"}, "ja"},
		{"", map[string]string{"LANG": "de_DE.UTF-8"}, "de"},
		{"", map[string]string{"LANG": "de_AT.UTF-8@euro"}, "de"},
		{"", map[string]string{"LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "ru"},
		{"", map[string]string{"LC_MESSAGES": "fr_CA.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"},
		{"", map[string]string{"LANG": "zh_CN.UTF-8"}, "zh-CN"},
		{"", map[string]string{"LANG": "zh_TW.UTF-8"}, "en"},
		{"", map[string]string{"LANG": "es_MX.UTF-8"}, "es"},
		{"", map[string]string{"LANG": "pt_BR.UTF-8"}, "en"},
		{"", map[string]string{"LANG": "C.UTF-8"}, "en"},
		{"", map[string]string{"LC_ALL": "POSIX"}, "en"},
		{"", map[string]string{}, "en"},
		{"xx", map[string]string{"LANG": "ja_JP.UTF-8"}, "ja"},
	}
	for _, c := range cases {
		if got := trayLanguage(c.setting, env(c.env)); got != c.want {
			t.Errorf("trayLanguage(%q, %v) = %q, want %q", c.setting, c.env, got, c.want)
		}
	}
}

// Every language of the UI has the whole menu, each count with the plural
// forms its language uses.
func TestTrayTextsCoverTheUI(t *testing.T) {
	for _, l := range core.UILanguages {
		tx, ok := trayTexts[l]
		if !ok {
			t.Errorf("%s: no tray text", l)
			continue
		}
		for _, s := range []string{tx.tooltip, tx.starting, tx.statusTip, tx.quick, tx.quickTip, tx.open, tx.openTip,
			tx.pause, tx.resume, tx.pauseTip, tx.quit, tx.quitTip, tx.upToDate, tx.paused, tx.held, tx.saved, tx.savedTip, tx.noSaved} {
			if s == "" {
				t.Errorf("%s: an empty label", l)
			}
		}
		if !strings.Contains(tx.queued, "%s") {
			t.Errorf("%s: queued has no count: %q", l, tx.queued)
		}
		if _, ok := tx.files[plural.Other]; !ok {
			t.Errorf("%s: no files text for other numbers", l)
		}
		if l != "en" && tx.quick == trayTexts["en"].quick {
			t.Errorf("%s: the menu is not translated", l)
		}
	}
	if len(trayTexts) != len(core.UILanguages) || !slices.Contains(core.UILanguages, "en") {
		t.Errorf("tray texts %d, UI languages %v", len(trayTexts), core.UILanguages)
	}
}
