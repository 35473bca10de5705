package search

import (
	"slices"
	"strings"
	"trove/backend/core"
)

// Kind is a family of file types people filter by ("PDFs", "Code")
// instead of a list of every extension an index happens to hold.
type Kind struct {
	ID    string
	Label string
	Exts  []string // with the dot; KindNone has none
}

// KindNone is the kind of files without an extension; KindOther of
// extensions no kind lists.
const (
	KindNone  = "none"
	KindOther = "other"
)

// Kinds in the order a type filter shows them.
var Kinds = []Kind{
	{"documents", "Documents", exts("txt md markdown rst org tex doc docx odt rtf epub html htm xhtml asciidoc adoc pod man info nfo log")},
	{"pdf", "PDFs", exts("pdf")},
	{"spreadsheets", "Spreadsheets", exts("xls xlsx ods csv tsv")},
	{"presentations", "Presentations", exts("ppt pptx odp key")},
	{"images", "Images", exts("png jpg jpeg gif webp svg bmp tif tiff heic ico avif")},
	{"audio", "Audio", exts("mp3 flac ogg oga opus wav m4a aac wma")},
	{"video", "Video", exts("mp4 mkv webm mov avi m4v wmv mpg mpeg")},
	{"code", "Code", exts("go c h cc cpp hpp cxx rs py js ts jsx tsx svelte vue java kt swift rb php pl pm lua sh bash zsh fish " +
		"cs fs scala clj hs ml sql r jl dart zig nim asm s mk cmake gradle json yaml yml toml xml ini cfg conf css scss less " +
		"proto mod sum lock diff patch el vim awk sed tcl ps1 bat make in am m4 ac")},
	{"archives", "Archives", exts("zip tar gz tgz bz2 tbz2 xz txz zst tzst 7z rar deb rpm jar")},
	{"mail", "Mail", exts("eml mbox msg")},
	{KindNone, "No extension", nil},
	{KindOther, "Other", nil},
}

func exts(list string) []string {
	var out []string
	for _, e := range strings.Fields(list) {
		out = append(out, "."+e)
	}
	return out
}

var kindOfExt = func() map[string]string {
	m := map[string]string{}
	for _, k := range Kinds {
		for _, e := range k.Exts {
			m[e] = k.ID
		}
	}
	return m
}()

// KindOf returns the kind of a file extension (lower case, with the dot;
// "" for none).
func KindOf(ext string) string {
	if ext == "" {
		return KindNone
	}
	if k, ok := kindOfExt[strings.ToLower(ext)]; ok {
		return k
	}
	return KindOther
}

// compressors are the extensions of one compressed file (what extraction
// decompresses): the kind of such a file is the kind of the file inside.
var compressors = exts("gz bz2 xz zst")

// KindOfName returns the kind of a file by its name: the kind of its
// extension, but a compressed file is of the kind of the file inside
// (changelog.gz and README.Debian.gz are documents, notes.md.gz too,
// dump.sql.gz is code) and an archive when that is a tar (.tar.gz, as
// .tgz). Inside one, a name of no known kind is a document: single files
// are compressed to be read later (changelogs, manuals, logs such as
// syslog.2.gz), and extraction reads their text.
func KindOfName(name string) string {
	ext := core.ExtensionOf(name)
	if !slices.Contains(compressors, ext) {
		return KindOf(ext)
	}
	inner := core.ExtensionOf(name[:len(name)-len(ext)])
	switch k := KindOf(inner); {
	case inner == ".tar":
		return "archives"
	case k == KindOther || k == KindNone:
		return "documents"
	default:
		return k
	}
}

// ValidKind reports whether id names a kind.
func ValidKind(id string) bool {
	return slices.ContainsFunc(Kinds, func(k Kind) bool { return k.ID == id })
}

// kindMatcher reports whether a file, by its name, belongs to one of the
// kinds or has one of the extensions (nil when neither restricts).
func kindMatcher(kinds, extensions []string) func(name string) bool {
	if len(kinds) == 0 && len(extensions) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	ext := map[string]bool{}
	for _, e := range normalizeExts(extensions) {
		ext[e] = true
	}
	return func(name string) bool { return ext[core.ExtensionOf(name)] || want[KindOfName(name)] }
}
