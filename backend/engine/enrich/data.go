package enrich

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Structured data and configuration files have no prose to quote: their
// summary names the format and the top-level keys (or sections, or the
// root element).

var dataFormats = map[string]string{
	".json": "JSON", ".geojson": "JSON", ".jsonc": "JSON", ".yaml": "YAML", ".yml": "YAML", ".toml": "TOML",
	".ini": "INI", ".cfg": "INI", ".conf": "INI", ".properties": "INI", ".xml": "XML", ".plist": "XML",
	".xsd": "XML", ".svg": "XML",
}

var dataMimes = map[string]string{
	"application/json": "JSON", "text/json": "JSON", "application/yaml": "YAML", "application/x-yaml": "YAML",
	"text/yaml": "YAML", "text/x-yaml": "YAML", "application/toml": "TOML", "application/xml": "XML", "text/xml": "XML",
}

// dataFormat recognises structured data by file name, then MIME type.
func dataFormat(filename, mime string) (string, bool) {
	if f, ok := dataFormats[strings.ToLower(filepath.Ext(filename))]; ok {
		return f, true
	}
	mime = strings.ToLower(strings.TrimSpace(mime))
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimSpace(mime[:i])
	}
	f, ok := dataMimes[mime]
	return f, ok
}

const maxDataKeys = 8

// dataSummary describes structured data by its top-level names.
func dataSummary(text, format string) string {
	var names []string
	what := "keys"
	switch format {
	case "JSON":
		names, what = jsonKeys(text)
	case "YAML":
		names = lineKeys(text, ':')
	case "TOML", "INI":
		if names = sections(text); len(names) > 0 {
			what = "sections"
		} else {
			names = lineKeys(text, '=')
		}
	case "XML":
		if root := xmlRoot(text); root != "" {
			return truncateRunes("XML document with the root element "+root+".", maxSummaryRunes)
		}
	}
	noun := format + " data"
	if format == "INI" {
		noun = "Configuration file"
	}
	switch {
	case what == "list":
		return noun + ": a list."
	case len(names) == 0:
		return noun + "."
	}
	more := ""
	if len(names) > maxDataKeys {
		names, more = names[:maxDataKeys], ", among others"
	}
	list := names[len(names)-1]
	if len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " and " + list
	}
	return truncateRunes(noun+" with the "+what+" "+list+more+".", maxSummaryRunes)
}

// jsonKeys lists a JSON object's top-level keys (or says it is a list).
// A document cut short by sampling still gives the keys read so far.
func jsonKeys(text string) ([]string, string) {
	dec := json.NewDecoder(strings.NewReader(text))
	tok, err := dec.Token()
	if err != nil {
		return nil, "keys"
	}
	if d, ok := tok.(json.Delim); ok && d == '[' {
		return nil, "list"
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, "keys"
	}
	var keys []string
	for dec.More() && len(keys) <= maxDataKeys {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		k, ok := tok.(string)
		if !ok {
			break
		}
		keys = append(keys, truncateRunes(cleanLine(k), 40))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return keys, "keys"
}

// lineKeys lists names at the start of unindented lines followed by sep
// ("name: x" in YAML, "name = x" in TOML and INI files).
func lineKeys(text string, sep byte) []string {
	var keys []string
	for line := range strings.Lines(text) {
		if len(keys) > maxDataKeys {
			break
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == ';' || line[0] == '-' {
			continue
		}
		i := strings.IndexByte(line, sep)
		if i <= 0 || i > 60 {
			continue
		}
		k := strings.Trim(strings.TrimSpace(line[:i]), `"'`)
		if k != "" && !strings.ContainsAny(k, " {}[]<>") && !contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// sections lists the [section] headers of TOML and INI files.
func sections(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		if len(out) > maxDataKeys {
			break
		}
		l := strings.TrimSpace(line)
		if len(l) > 2 && l[0] == '[' && l[len(l)-1] == ']' {
			name := strings.Trim(l, "[] ")
			if name != "" && !contains(out, name) {
				out = append(out, truncateRunes(name, 40))
			}
		}
	}
	return out
}

// xmlRoot returns the name of the first element, after any declaration,
// comment or doctype.
func xmlRoot(text string) string {
	for i := 0; i < len(text) && i < 4096; i++ {
		if text[i] != '<' || i+1 >= len(text) || !isLetterByte(text[i+1]) {
			continue
		}
		j := i + 1
		for j < len(text) && (isLetterByte(text[j]) || isDigit(text[j]) || text[j] == ':' || text[j] == '-' || text[j] == '_' || text[j] == '.') {
			j++
		}
		return text[i+1 : j]
	}
	return ""
}
