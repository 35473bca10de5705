package extract

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/gabriel-vasile/mimetype"
)

// family is a format family and the extractor that handles it.
type family struct {
	name string
	mime string
	run  func(s *source, d *Document) error
}

var familyMime = map[string]string{
	"text":     "text/plain",
	"markdown": "text/markdown",
	"html":     "text/html",
	"pdf":      "application/pdf",
	"docx":     "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xlsx":     "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"pptx":     "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	"odt":      "application/vnd.oasis.opendocument.text",
	"ods":      "application/vnd.oasis.opendocument.spreadsheet",
	"odp":      "application/vnd.oasis.opendocument.presentation",
	"epub":     "application/epub+zip",
	"rtf":      "application/rtf",
	"eml":      "message/rfc822",
	"mbox":     "application/mbox",
	"csv":      "text/csv",
	"json":     "application/json",
	"yaml":     "application/yaml",
	"xml":      "application/xml",
	"toml":     "application/toml",
	"archive":  "application/zip",
	"doc":      "application/msword",
	"xls":      "application/vnd.ms-excel",
	"ppt":      "application/vnd.ms-powerpoint",
	"mobi":     "application/x-mobipocket-ebook",
	"djvu":     "image/vnd.djvu",
	"chm":      "application/vnd.ms-htmlhelp",
}

// extFamily maps extensions to families. Extensions not listed are sniffed;
// plain text and source code need no entry.
var extFamily = map[string]string{
	".md": "markdown", ".markdown": "markdown", ".mdown": "markdown", ".mkd": "markdown",
	".htm": "html", ".html": "html", ".xhtml": "html", ".shtml": "html",
	".pdf":  "pdf",
	".docx": "docx", ".docm": "docx", ".dotx": "docx", ".dotm": "docx",
	".xlsx": "xlsx", ".xlsm": "xlsx", ".xltx": "xlsx", ".xltm": "xlsx",
	".pptx": "pptx", ".pptm": "pptx", ".potx": "pptx", ".ppsx": "pptx",
	".odt": "odt", ".ott": "odt", ".ods": "ods", ".ots": "ods", ".odp": "odp", ".otp": "odp",
	".doc": "doc", ".dot": "doc", ".xls": "xls", ".xlt": "xls", ".ppt": "ppt", ".pps": "ppt", ".pot": "ppt",
	".mobi": "mobi", ".azw": "mobi", ".azw3": "mobi", ".djvu": "djvu", ".djv": "djvu", ".chm": "chm",
	".epub": "epub", ".rtf": "rtf", ".eml": "eml", ".mbox": "mbox", ".mbx": "mbox",
	".csv": "csv", ".tsv": "csv", ".tab": "csv",
	".json": "json", ".geojson": "json", ".ipynb": "json", ".webmanifest": "json",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
	".xml": "xml", ".xsd": "xml", ".xsl": "xml", ".xslt": "xml", ".svg": "xml", ".rss": "xml",
	".atom": "xml", ".plist": "xml", ".kml": "xml", ".gpx": "xml", ".xlf": "xml", ".xliff": "xml",
	".jpg": "image", ".jpeg": "image", ".png": "image", ".gif": "image", ".webp": "image",
	".bmp": "image", ".tif": "image", ".tiff": "image", ".heic": "image", ".ico": "image",
	".mp3": "audio", ".flac": "audio", ".ogg": "audio", ".oga": "audio", ".opus": "audio",
	".wav": "audio", ".m4a": "audio", ".aac": "audio", ".aiff": "audio", ".wma": "audio",
	".mp4": "video", ".m4v": "video", ".mov": "video", ".mkv": "video", ".webm": "video",
	".avi": "video", ".wmv": "video", ".mpg": "video", ".mpeg": "video",
	".zip": "archive", ".jar": "archive", ".tar": "archive", ".gz": "archive", ".tgz": "archive",
	".bz2": "archive", ".tbz2": "archive", ".xz": "archive", ".txz": "archive", ".zst": "archive", ".tzst": "archive",
	".7z": "archive", ".rar": "archive",
}

var extMime = map[string]string{
	".tsv": "text/tab-separated-values", ".tab": "text/tab-separated-values",
	".svg": "image/svg+xml", ".xhtml": "application/xhtml+xml", ".rss": "application/rss+xml",
	".atom": "application/atom+xml", ".ipynb": "application/x-ipynb+json",
	".jar": "application/java-archive", ".tar": "application/x-tar", ".gz": "application/gzip",
	".tgz": "application/gzip", ".bz2": "application/x-bzip2", ".tbz2": "application/x-bzip2",
	".xz": "application/x-xz", ".txz": "application/x-xz", ".zst": "application/zstd", ".tzst": "application/zstd",
	".7z": "application/x-7z-compressed", ".rar": "application/vnd.rar",
}

// detect picks the family from a few magic bytes and the extension; the
// expensive general sniffer runs only for binaries nobody claimed.
func detect(s *source) family {
	name, mime := magic(s.head)
	ext := extFamily[s.ext]
	switch {
	case name == "zip":
		name, mime = zipFamily(s, ext)
	case name == "ole":
		name, mime = oleFamily(s, ext)
	case name != "":
	case maildirName(s.name) && startsWithHeader(s.head):
		name = "eml"
	case ext == "doc" || ext == "xls" || ext == "ppt":
		// Not a compound file: Word and Excel also save HTML or text under
		// these names.
		name = sniffText(s.head)
	case ext == "image" || ext == "audio" || ext == "video" || ext == "archive":
		// A format without a signature checked here (MP3 frames, ICO, ...):
		// the general sniffer names it.
		name, mime = ext, mimetype.Detect(s.head).String()
	case ext != "":
		name = ext
	default:
		name = sniffText(s.head)
	}
	if mime == "" {
		mime = extMime[s.ext]
	}
	if mime == "" {
		mime = familyMime[name]
	}
	return family{name: name, mime: mime, run: runner(name)}
}

func runner(name string) func(*source, *Document) error {
	switch name {
	case "text":
		return extractText
	case "markdown":
		return extractMarkdown
	case "html":
		return extractHTML
	case "pdf":
		return extractPDF
	case "docx":
		return extractDOCX
	case "xlsx":
		return extractXLSX
	case "pptx":
		return extractPPTX
	case "odt", "ods", "odp":
		return extractODF
	case "epub":
		return extractEPUB
	case "rtf":
		return extractRTF
	case "eml":
		return extractEML
	case "mbox":
		return extractMbox
	case "csv":
		return extractCSV
	case "json":
		return extractJSON
	case "yaml":
		return extractYAML
	case "toml":
		return extractTOML
	case "xml":
		return extractXML
	case "image", "audio", "video":
		return extractMedia
	case "archive":
		return extractArchive
	case "doc", "xls", "ppt", "ole":
		return extractOLE
	case "mobi":
		return extractMOBI
	case "djvu":
		return extractDjVu
	case "chm":
		return extractCHM
	}
	return nil
}

type signature struct {
	off         int
	magic, name string
	mime        string
}

// signatures are checked in order; the first match wins.
var signatures = []signature{
	{0, "%PDF-", "pdf", "application/pdf"},
	{0, "PK\x03\x04", "zip", ""},
	{0, "{\\rtf", "rtf", "application/rtf"},
	{0, "\xff\xd8\xff", "image", "image/jpeg"},
	{0, "\x89PNG\r\n\x1a\n", "image", "image/png"},
	{0, "GIF87a", "image", "image/gif"},
	{0, "GIF89a", "image", "image/gif"},
	{0, "II*\x00", "image", "image/tiff"},
	{0, "MM\x00*", "image", "image/tiff"},
	{8, "WEBP", "image", "image/webp"},
	{8, "WAVE", "audio", "audio/wav"},
	{8, "AVI ", "video", "video/x-msvideo"},
	{0, "ID3", "audio", "audio/mpeg"},
	{0, "fLaC", "audio", "audio/flac"},
	{0, "OggS", "audio", "audio/ogg"},
	{4, "ftypM4A", "audio", "audio/mp4"},
	{4, "ftypqt", "video", "video/quicktime"},
	{4, "ftyphei", "image", "image/heic"},
	{4, "ftyp", "video", "video/mp4"},
	{0, "\x1a\x45\xdf\xa3", "video", "video/x-matroska"},
	{0, "\x1f\x8b", "archive", "application/gzip"},
	{0, "BZh91AY&SY", "archive", "application/x-bzip2"}, // block size 9 (the default), then a block's magic
	{0, "BZh11AY&SY", "archive", "application/x-bzip2"},
	{0, "BZh51AY&SY", "archive", "application/x-bzip2"},
	{257, "ustar", "archive", "application/x-tar"},
	{0, "7z\xbc\xaf\x27\x1c", "archive", "application/x-7z-compressed"},
	{0, "Rar!\x1a\x07", "archive", "application/vnd.rar"},
	{0, "\xfd7zXZ\x00", "archive", "application/x-xz"},
	{0, "\x28\xb5\x2f\xfd", "archive", "application/zstd"},
	{0, "AT&TFORM", "djvu", "image/vnd.djvu"},
	{0, "ITSF\x03\x00\x00\x00", "chm", "application/vnd.ms-htmlhelp"},
	{60, "BOOKMOBI", "mobi", "application/x-mobipocket-ebook"},
	{60, "TEXtREAd", "mobi", "application/vnd.palm"},
	{0, "\x7fELF", "metadata", ""},
	{0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole", ""},
	{0, "SQLite format 3\x00", "metadata", "application/vnd.sqlite3"},
}

func magic(head []byte) (name, mime string) {
	for _, sg := range signatures {
		if len(head) >= sg.off+len(sg.magic) && string(head[sg.off:sg.off+len(sg.magic)]) == sg.magic {
			if sg.name == "metadata" && sg.mime == "" {
				return sg.name, mimetype.Detect(head).String()
			}
			return sg.name, sg.mime
		}
	}
	// A PDF may start after up to 1 KB of junk.
	if i := bytes.Index(head[:min(len(head), 1024)], []byte("%PDF-")); i > 0 {
		return "pdf", "application/pdf"
	}
	return "", ""
}

// zipFamily tells the zip-based document formats apart: ODF and EPUB name
// their type in a first stored entry called "mimetype"; OOXML is trusted by
// extension, and the archive extractor looks inside the others.
func zipFamily(s *source, ext string) (string, string) {
	if m := zipMimetype(s.head); m != "" {
		switch m {
		case familyMime["odt"], "application/vnd.oasis.opendocument.text-template":
			return "odt", m
		case familyMime["ods"], "application/vnd.oasis.opendocument.spreadsheet-template":
			return "ods", m
		case familyMime["odp"], "application/vnd.oasis.opendocument.presentation-template":
			return "odp", m
		case familyMime["epub"]:
			return "epub", m
		}
	}
	switch ext {
	case "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub":
		return ext, familyMime[ext]
	}
	return "archive", extMimeOr(s.ext, "application/zip")
}

// oleFamily trusts the extension of Office 97-2003 files; other compound
// files are told apart by their streams (extractOLE).
func oleFamily(s *source, ext string) (string, string) {
	switch ext {
	case "doc", "xls", "ppt":
		return ext, familyMime[ext]
	}
	return "ole", mimetype.Detect(s.head).String()
}

func extMimeOr(ext, def string) string {
	if m := extMime[ext]; m != "" {
		return m
	}
	return def
}

func zipMimetype(head []byte) string {
	const nameOff = 30
	if len(head) < nameOff+8 || string(head[nameOff:nameOff+8]) != "mimetype" {
		return ""
	}
	n := int(binary.LittleEndian.Uint32(head[18:22]))
	nameLen := int(binary.LittleEndian.Uint16(head[26:28]))
	extra := int(binary.LittleEndian.Uint16(head[28:30]))
	start := nameOff + nameLen + extra
	if nameLen != 8 || n > 100 || start+n > len(head) {
		return ""
	}
	return strings.TrimSpace(string(head[start : start+n]))
}

// sniffText recognises text formats by their first bytes when the
// extension says nothing.
func sniffText(head []byte) string {
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	low := bytes.ToLower(h[:min(len(h), 512)])
	switch {
	case bytes.HasPrefix(low, []byte("<!doctype html")), bytes.HasPrefix(low, []byte("<html")):
		return "html"
	case bytes.HasPrefix(low, []byte("<?xml")):
		if bytes.Contains(low, []byte("<!doctype html")) || bytes.Contains(low, []byte("<html")) {
			return "html"
		}
		return "xml"
	case bytes.HasPrefix(h, []byte("From ")) && looksLikeHeaders(afterLine(h)):
		return "mbox"
	case looksLikeHeaders(h):
		return "eml"
	}
	return "text"
}

func afterLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return nil
}

var mailHeaders = []string{"received", "from", "to", "subject", "date", "message-id",
	"return-path", "mime-version", "delivered-to", "content-type", "x-mailer", "reply-to", "cc"}

// looksLikeHeaders accepts a block of RFC 5322 header lines that names at
// least two well-known mail headers before its first blank line.
func looksLikeHeaders(b []byte) bool {
	known, lines := 0, 0
	for len(b) > 0 && lines < 60 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 {
			break
		}
		lines++
		if line[0] == ' ' || line[0] == '\t' {
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || bytes.ContainsAny(line[:colon], " \t") {
			return false
		}
		for _, h := range mailHeaders {
			if strings.EqualFold(string(line[:colon]), h) {
				known++
				break
			}
		}
	}
	return known >= 2
}
