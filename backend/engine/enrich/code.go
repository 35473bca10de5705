package enrich

import (
	"path/filepath"
	"strings"

	"trove/backend/engine/text/markdown"
)

// commentStyle says how a programming language writes comments.
type commentStyle uint8

const (
	styleNone commentStyle = iota
	styleC                 // // and /* */
	styleHash              // # (and Python docstrings)
	styleDash              // --
)

type language struct {
	name  string
	style commentStyle
}

var languages = map[string]language{
	".go": {"Go", styleC}, ".c": {"C", styleC}, ".h": {"C header", styleC}, ".cc": {"C++", styleC},
	".cpp": {"C++", styleC}, ".cxx": {"C++", styleC}, ".hpp": {"C++ header", styleC}, ".hh": {"C++ header", styleC},
	".java": {"Java", styleC}, ".js": {"JavaScript", styleC}, ".mjs": {"JavaScript", styleC}, ".cjs": {"JavaScript", styleC},
	".jsx": {"JavaScript", styleC}, ".ts": {"TypeScript", styleC}, ".tsx": {"TypeScript", styleC}, ".cs": {"C#", styleC},
	".swift": {"Swift", styleC}, ".kt": {"Kotlin", styleC}, ".kts": {"Kotlin", styleC}, ".scala": {"Scala", styleC},
	".rs": {"Rust", styleC}, ".php": {"PHP", styleC}, ".dart": {"Dart", styleC}, ".m": {"Objective-C", styleC},
	".mm": {"Objective-C++", styleC}, ".groovy": {"Groovy", styleC}, ".zig": {"Zig", styleC}, ".sol": {"Solidity", styleC},
	".proto": {"Protocol Buffers", styleC}, ".css": {"CSS", styleC}, ".scss": {"SCSS", styleC}, ".less": {"Less", styleC},
	".py": {"Python", styleHash}, ".pyw": {"Python", styleHash}, ".rb": {"Ruby", styleHash}, ".sh": {"Shell", styleHash},
	".bash": {"Shell", styleHash}, ".zsh": {"Shell", styleHash}, ".fish": {"Shell", styleHash}, ".pl": {"Perl", styleHash},
	".pm": {"Perl", styleHash}, ".r": {"R", styleHash}, ".ps1": {"PowerShell", styleHash}, ".nim": {"Nim", styleHash},
	".ex": {"Elixir", styleHash}, ".exs": {"Elixir", styleHash}, ".jl": {"Julia", styleHash}, ".cr": {"Crystal", styleHash},
	".tcl": {"Tcl", styleHash}, ".coffee": {"CoffeeScript", styleHash}, ".cmake": {"CMake", styleHash}, ".mk": {"Makefile", styleHash},
	".sql": {"SQL", styleDash}, ".lua": {"Lua", styleDash}, ".hs": {"Haskell", styleDash}, ".elm": {"Elm", styleDash},
	".ada": {"Ada", styleDash}, ".adb": {"Ada", styleDash},
}

var codeMimes = map[string]string{
	"text/x-go": ".go", "text/x-python": ".py", "text/x-script.python": ".py", "application/x-python-code": ".py",
	"text/javascript": ".js", "application/javascript": ".js", "application/x-javascript": ".js",
	"application/typescript": ".ts", "text/x-typescript": ".ts", "text/x-c": ".c", "text/x-csrc": ".c",
	"text/x-chdr": ".h", "text/x-c++": ".cpp", "text/x-c++src": ".cpp", "text/x-java": ".java", "text/x-java-source": ".java",
	"text/x-rust": ".rs", "text/rust": ".rs", "text/x-ruby": ".rb", "application/x-ruby": ".rb", "text/x-sh": ".sh",
	"application/x-sh": ".sh", "text/x-shellscript": ".sh", "application/x-shellscript": ".sh", "text/x-php": ".php",
	"application/x-php": ".php", "text/x-csharp": ".cs", "text/x-kotlin": ".kt", "text/x-swift": ".swift", "application/sql": ".sql",
	"text/x-sql": ".sql", "text/x-lua": ".lua", "text/x-perl": ".pl", "text/x-haskell": ".hs", "text/x-scala": ".scala",
}

// sourceLanguage recognises program text by file name, then by MIME type.
func sourceLanguage(filename, mime string) (language, bool) {
	ext := strings.ToLower(filepath.Ext(filename))
	if l, ok := languages[ext]; ok {
		return l, true
	}
	switch strings.ToLower(filename) {
	case "makefile", "gnumakefile":
		return language{"Makefile", styleHash}, true
	case "dockerfile", "containerfile":
		return language{"Dockerfile", styleHash}, true
	}
	mime = strings.ToLower(strings.TrimSpace(mime))
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimSpace(mime[:i])
	}
	if e, ok := codeMimes[mime]; ok {
		return languages[e], true
	}
	return language{}, false
}

// codeInfo is what the summary of a source file is made from.
type codeInfo struct {
	doc   string   // the first descriptive comment block or docstring
	decls []string // top-level declarations, in order
	text  string   // the text for keywords: the file without boilerplate comments
}

// analyzeCode finds a source file's first descriptive comment (package or
// module documentation, usually) and its top-level declarations, and
// blanks out licence headers and tool directives.
func analyzeCode(text string, lang language) codeInfo {
	var info codeInfo
	var block []string // the comment block being read
	var kw strings.Builder
	kw.Grow(len(text))
	inBlock := false // inside /* */
	inDoc := ""      // inside a Python docstring: its quote
	var blockLines []string
	flush := func() {
		if len(block) == 0 {
			return
		}
		text := strings.Join(block, " ")
		block = block[:0]
		boiler := isBoilerplate(text) || isDirective(text)
		if info.doc == "" && !boiler && wordCount(text, 5) >= 4 && !looksLikeCommentedCode(text) {
			info.doc = collapseSpaces(text) // counted for keywords on its own
		} else if !boiler {
			for _, l := range blockLines {
				kw.WriteString(l)
				kw.WriteByte('\n')
			}
		}
		blockLines = blockLines[:0]
	}
	lines := 0
	for len(text) > 0 {
		var raw string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			raw, text = text[:i], text[i+1:]
		} else {
			raw, text = text, ""
		}
		lines++
		l := strings.TrimSpace(raw)
		switch {
		case inBlock:
			end := strings.Index(l, "*/")
			if end >= 0 {
				l, inBlock = l[:end], false
			}
			block = append(block, commentText(strings.TrimLeft(l, "*")))
			blockLines = append(blockLines, raw)
			if !inBlock {
				flush()
			}
			continue
		case inDoc != "":
			end := strings.Index(l, inDoc)
			if end >= 0 {
				l, inDoc = l[:end], ""
			}
			block = append(block, l)
			blockLines = append(blockLines, raw)
			if inDoc == "" {
				flush()
			}
			continue
		}
		c, kind := lineComment(l, lang.style)
		switch kind {
		case 1: // a line comment
			block = append(block, c)
			blockLines = append(blockLines, raw)
			continue
		case 2: // the start of a block comment or docstring
			flush()
			if lang.style == styleHash {
				l = strings.TrimPrefix(l, "r")
				q, rest := l[:3], l[3:]
				if end := strings.Index(rest, q); end >= 0 {
					block = append(block, rest[:end])
					blockLines = append(blockLines, raw)
					flush()
				} else {
					inDoc = q
					block = append(block, rest)
					blockLines = append(blockLines, raw)
				}
				continue
			}
			rest := strings.TrimLeft(l[2:], "*!")
			if end := strings.Index(rest, "*/"); end >= 0 {
				block = append(block, commentText(rest[:end]))
				blockLines = append(blockLines, raw)
				flush()
			} else {
				inBlock = true
				block = append(block, commentText(rest))
				blockLines = append(blockLines, raw)
			}
			continue
		}
		flush()
		kw.WriteString(raw)
		kw.WriteByte('\n')
		if l != "" && raw[0] != ' ' && raw[0] != '\t' && len(info.decls) < 12 {
			if d := declName(l); d != "" && !contains(info.decls, d) {
				info.decls = append(info.decls, d)
			}
		}
	}
	flush()
	info.text = kw.String()
	return info
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lineComment classifies a trimmed line: 1 and the text for a line
// comment, 2 for the start of a block comment (or docstring), 0 for code.
func lineComment(l string, style commentStyle) (string, int) {
	switch style {
	case styleC:
		if strings.HasPrefix(l, "//") {
			return commentText(strings.TrimLeft(l[2:], "/!")), 1
		}
		if strings.HasPrefix(l, "/*") {
			return "", 2
		}
	case styleHash:
		if strings.HasPrefix(l, "#!") || strings.HasPrefix(l, "#include") {
			return "", 0
		}
		if strings.HasPrefix(l, "#") {
			return commentText(strings.TrimLeft(l, "#")), 1
		}
		if strings.HasPrefix(l, `"""`) || strings.HasPrefix(l, `'''`) || strings.HasPrefix(l, `r"""`) {
			return "", 2
		}
	case styleDash:
		if strings.HasPrefix(l, "--") {
			return commentText(strings.TrimLeft(l, "-")), 1
		}
	}
	return "", 0
}

func commentText(s string) string { return strings.TrimSpace(s) }

// isDirective matches comments meant for tools rather than people.
func isDirective(s string) bool {
	t := strings.TrimSpace(s)
	for _, p := range []string{"go:", "+build", "eslint", "prettier", "@ts-", "-*-", "coding:", "coding=", "pylint", "noqa",
		"type: ignore", "frozen_string_literal", "vim:", "shellcheck", "nolint", "swiftlint", "region", "endregion",
		"<reference", "jshint", "istanbul", "@flow", "@jsx", "@format", "clang-format", "NOLINT", "#region", "pragma", "TODO", "FIXME"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// looksLikeCommentedCode reports comment blocks that are mostly disabled
// program text.
func looksLikeCommentedCode(s string) bool {
	sym := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '}', ';', '=', '(', ')':
			sym++
		}
	}
	return sym*12 > len(s)
}

// declName returns the name declared by a top-level line of code, if any.
func declName(l string) string {
	for _, p := range []string{"export default ", "export ", "pub(crate) ", "pub ", "public ", "private ", "protected ",
		"internal ", "static ", "abstract ", "final ", "async ", "open ", "sealed ", "data "} {
		l = strings.TrimPrefix(l, p)
	}
	for _, p := range []string{"func ", "type ", "class ", "def ", "function ", "interface ", "struct ", "enum ",
		"trait ", "fn ", "object ", "module ", "record ", "fun ", "impl "} {
		if rest, ok := strings.CutPrefix(l, p); ok {
			// Go methods: func (r *T) Name(...).
			if p == "func " && strings.HasPrefix(rest, "(") {
				if i := strings.IndexByte(rest, ')'); i > 0 {
					rest = strings.TrimSpace(rest[i+1:])
				}
			}
			end := 0
			for end < len(rest) && (isLetterByte(rest[end]) || isDigit(rest[end]) || rest[end] == '_') {
				end++
			}
			if end > 0 {
				return rest[:end]
			}
			return ""
		}
	}
	return ""
}

// codeSummary is the doc comment's first sentences or, without one, what
// the file declares.
func codeSummary(info codeInfo, lang language) string {
	if info.doc != "" {
		var out []string
		total := 0
		splitSentences(markdown.Inline(info.doc), func(s string) {
			if len(out) == maxSummarySents || total < 0 {
				return
			}
			l := len([]rune(s)) + len(out)
			if total+l > maxSummaryRunes {
				if len(out) == 0 {
					out = append(out, truncateRunes(s, maxSummaryRunes))
				}
				total = -1
				return
			}
			out = append(out, s)
			total += l
		})
		return strings.Join(out, " ")
	}
	if len(info.decls) == 0 {
		return lang.name + " source file."
	}
	names := info.decls
	if len(names) > 6 {
		names = names[:6]
	}
	list := strings.Join(names[:len(names)-1], ", ")
	if list != "" {
		list += " and "
	}
	list += names[len(names)-1]
	more := ""
	if len(info.decls) > len(names) {
		more = ", among others"
	}
	return truncateRunes(lang.name+" source file declaring "+list+more+".", maxSummaryRunes)
}
