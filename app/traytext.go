package app

import (
	"os"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"trove/backend/core"
)

// trayText is the tray menu in one language. Counts take the plural form
// their language needs (Russian has one, few and many); each text holds
// one %s, the number written in the language's way.
type trayText struct {
	tooltip, starting, statusTip   string
	quick, quickTip, open, openTip string
	pause, resume, pauseTip        string
	quit, quitTip                  string
	saved, savedTip, noSaved       string                 // the saved searches' submenu
	files                          map[plural.Form]string // "%s files indexed"
	queued, upToDate, paused, held string                 // parts of the status line
}

// trayTexts has a text for each of core.UILanguages (TestTrayTextsCoverTheUI).
var trayTexts = map[string]trayText{
	"en": {
		saved: "Saved searches", savedTip: "Open Trove on a saved search", noSaved: "No saved searches yet",
		tooltip: "Trove: search your files", starting: "Starting…", statusTip: "What Trove is doing",
		quick: "Quick search", quickTip: "Search your files from a small window",
		open: "Open Trove", openTip: "Folders, activity and settings",
		pause: labelPause, resume: labelResume, pauseTip: "Stop or restart indexing",
		quit: "Quit", quitTip: "Stop Trove, its index and its API",
		files:  map[plural.Form]string{plural.One: "%s file indexed", plural.Other: "%s files indexed"},
		queued: "%s queued", upToDate: "up to date", paused: "paused", held: "held by schedule",
	},
	"de": {
		saved: "Gespeicherte Suchen", savedTip: "Trove mit einer gespeicherten Suche öffnen", noSaved: "Noch keine gespeicherten Suchen",
		tooltip: "Trove: Dateien durchsuchen", starting: "Wird gestartet …", statusTip: "Was Trove gerade tut",
		quick: "Schnellsuche", quickTip: "Dateien in einem kleinen Fenster durchsuchen",
		open: "Trove öffnen", openTip: "Ordner, Aktivität und Einstellungen",
		pause: "Indexierung pausieren", resume: "Indexierung fortsetzen", pauseTip: "Indexierung anhalten oder wieder starten",
		quit: "Beenden", quitTip: "Trove, seinen Index und seine API beenden",
		files:  map[plural.Form]string{plural.One: "%s Datei indexiert", plural.Other: "%s Dateien indexiert"},
		queued: "%s in der Warteschlange", upToDate: "aktuell", paused: "pausiert", held: "vom Zeitplan angehalten",
	},
	"fr": {
		saved: "Recherches enregistrées", savedTip: "Ouvrir Trove sur une recherche enregistrée", noSaved: "Aucune recherche enregistrée",
		tooltip: "Trove : rechercher dans vos fichiers", starting: "Démarrage…", statusTip: "Ce que fait Trove",
		quick: "Recherche rapide", quickTip: "Rechercher dans vos fichiers depuis une petite fenêtre",
		open: "Ouvrir Trove", openTip: "Dossiers, activité et paramètres",
		pause: "Suspendre l’indexation", resume: "Reprendre l’indexation", pauseTip: "Arrêter ou relancer l’indexation",
		quit: "Quitter", quitTip: "Arrêter Trove, son index et son API",
		files:  map[plural.Form]string{plural.One: "%s fichier indexé", plural.Other: "%s fichiers indexés"},
		queued: "%s en file d’attente", upToDate: "à jour", paused: "en pause", held: "retenu par le planning",
	},
	"es": {
		saved: "Búsquedas guardadas", savedTip: "Abrir Trove con una búsqueda guardada", noSaved: "Aún no hay búsquedas guardadas",
		tooltip: "Trove: buscar en tus archivos", starting: "Iniciando…", statusTip: "Qué está haciendo Trove",
		quick: "Búsqueda rápida", quickTip: "Buscar en tus archivos desde una ventana pequeña",
		open: "Abrir Trove", openTip: "Carpetas, actividad y ajustes",
		pause: "Pausar la indexación", resume: "Reanudar la indexación", pauseTip: "Detener o reanudar la indexación",
		quit: "Salir", quitTip: "Detener Trove, su índice y su API",
		files:  map[plural.Form]string{plural.One: "%s archivo indexado", plural.Other: "%s archivos indexados"},
		queued: "%s en cola", upToDate: "al día", paused: "en pausa", held: "retenido por el horario",
	},
	"zh-CN": {
		saved: "已保存的搜索", savedTip: "在已保存的搜索上打开 Trove", noSaved: "还没有已保存的搜索",
		tooltip: "Trove：搜索你的文件", starting: "正在启动…", statusTip: "Trove 正在做什么",
		quick: "快速搜索", quickTip: "在小窗口中搜索你的文件",
		open: "打开 Trove", openTip: "文件夹、活动和设置",
		pause: "暂停索引", resume: "继续索引", pauseTip: "停止或重新开始索引",
		quit: "退出", quitTip: "停止 Trove、它的索引和 API",
		files:  map[plural.Form]string{plural.Other: "已索引 %s 个文件"},
		queued: "队列中 %s 个", upToDate: "已是最新", paused: "已暂停", held: "按计划暂缓",
	},
	"ja": {
		saved: "保存した検索", savedTip: "保存した検索で Trove を開く", noSaved: "保存した検索はまだありません",
		tooltip: "Trove：ファイルを検索", starting: "起動中…", statusTip: "Trove の動作状況",
		quick: "クイック検索", quickTip: "小さなウィンドウでファイルを検索",
		open: "Trove を開く", openTip: "フォルダー、アクティビティ、設定",
		pause: "インデックス作成を一時停止", resume: "インデックス作成を再開", pauseTip: "インデックス作成を止める、または再開する",
		quit: "終了", quitTip: "Trove とそのインデックス、API を停止",
		files:  map[plural.Form]string{plural.Other: "%s 個のファイルをインデックス済み"},
		queued: "キューに %s 件", upToDate: "最新", paused: "一時停止中", held: "スケジュールにより保留",
	},
	"ru": {
		saved: "Сохранённые поиски", savedTip: "Открыть Trove на сохранённом поиске", noSaved: "Сохранённых поисков пока нет",
		tooltip: "Trove: поиск по файлам", starting: "Запуск…", statusTip: "Что сейчас делает Trove",
		quick: "Быстрый поиск", quickTip: "Поиск по файлам в небольшом окне",
		open: "Открыть Trove", openTip: "Папки, активность и настройки",
		pause: "Приостановить индексацию", resume: "Продолжить индексацию", pauseTip: "Остановить или возобновить индексацию",
		quit: "Выйти", quitTip: "Остановить Trove, его индекс и API",
		files: map[plural.Form]string{
			plural.One: "%s файл проиндексирован", plural.Few: "%s файла проиндексировано",
			plural.Many: "%s файлов проиндексировано", plural.Other: "%s файла проиндексировано",
		},
		queued: "в очереди: %s", upToDate: "всё актуально", paused: "приостановлено", held: "ожидает расписания",
	},
}

var trayMatcher = func() language.Matcher {
	tags := make([]language.Tag, len(core.UILanguages))
	for i, l := range core.UILanguages {
		tags[i] = language.MustParse(l)
	}
	return language.NewMatcher(tags)
}()

// trayLanguage is the language of the menu: the setting ui.language, or
// when it is "" the locale of the session (LC_ALL, else LC_MESSAGES, else
// LANG, as setlocale reads them), or English.
func trayLanguage(setting string, getenv func(string) string) string {
	if _, ok := trayTexts[setting]; ok {
		return setting
	}
	var locale string
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(v); locale != "" {
			break
		}
	}
	// de_AT.UTF-8@euro -> de-AT; C and POSIX name no language.
	locale, _, _ = strings.Cut(locale, ".")
	locale, _, _ = strings.Cut(locale, "@")
	tag, err := language.Parse(strings.ReplaceAll(locale, "_", "-"))
	if err != nil || locale == "C" || locale == "POSIX" {
		return "en"
	}
	_, i, conf := trayMatcher.Match(tag)
	if conf < language.High {
		return "en" // Traditional Chinese is not Simplified, Portuguese not Spanish
	}
	return core.UILanguages[i]
}

// trayTextFor is the menu's text for a ui.language setting, in this session.
func trayTextFor(setting string) (trayText, language.Tag) {
	lang := trayLanguage(setting, os.Getenv)
	return trayTexts[lang], language.MustParse(lang)
}

// statusLine is the tray's first line: "12,408 files indexed · 3 queued".
func statusLine(tx trayText, tag language.Tag, files int64, q core.QueueStatus) string {
	p := message.NewPrinter(tag)
	form := plural.Cardinal.MatchPlural(tag, int(files), 0, 0, 0, 0)
	format, ok := tx.files[form]
	if !ok {
		format = tx.files[plural.Other]
	}
	line := strings.Replace(format, "%s", p.Sprintf("%d", files), 1)
	if q.Total > 0 {
		line += " · " + strings.Replace(tx.queued, "%s", p.Sprintf("%d", q.Total), 1)
	} else {
		line += " · " + tx.upToDate
	}
	switch {
	case q.PausedManually:
		line += " · " + tx.paused
	case q.PausedByScheduler:
		line += " · " + tx.held
	}
	return line
}

// pauseLabel follows the manual pause: a scheduler hold is not the person's
// to undo from here.
func pauseLabel(tx trayText, q core.QueueStatus) string {
	if q.PausedManually {
		return tx.resume
	}
	return tx.pause
}
