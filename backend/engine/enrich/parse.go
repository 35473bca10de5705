package enrich

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"
)

var errNoCard = errors.New("answer has no JSON object with a title, summary or keywords")

// parseAnswer reads a card from a model's answer, defensively: the JSON
// object may sit in a code fence or among prose (or after a reasoning
// model's <think> section), keys may vary in case or name, and values may
// have the wrong type. Fields that cannot be read are left empty; an error
// means nothing usable was found.
func parseAnswer(s string) (Card, error) {
	if i := strings.LastIndex(s, "</think>"); i >= 0 {
		s = s[i+len("</think>"):]
	}
	for off, tries := 0, 0; off < len(s) && tries < 32; tries++ {
		i := strings.IndexByte(s[off:], '{')
		if i < 0 {
			break
		}
		off += i
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(s[off:]))
		if dec.Decode(&m) == nil {
			if c, ok := cardFromMap(m, 0); ok {
				return c, nil
			}
		}
		off++
	}
	return Card{}, errNoCard
}

// cardFromMap takes the card's fields from a decoded object, looking one
// level down when the object wraps the card ({"card": {...}}). Keys are
// matched without regard to case, in a fixed order of preference.
func cardFromMap(m map[string]any, depth int) (Card, bool) {
	byKey := make(map[string]any, len(m))
	for k, v := range m {
		lk := strings.ToLower(strings.TrimSpace(k))
		if _, dup := byKey[lk]; !dup || k == lk {
			byKey[lk] = v
		}
	}
	var c Card
	for _, k := range []string{"title", "name", "heading"} {
		if v, ok := byKey[k]; ok && c.Title == "" {
			c.Title = titleValue(v)
		}
	}
	for _, k := range []string{"summary", "description", "abstract"} {
		if v, ok := byKey[k]; ok && c.Summary == "" {
			c.Summary = summaryValue(v)
		}
	}
	for _, k := range []string{"keywords", "tags", "key_words", "keyphrases", "keyword"} {
		if v, ok := byKey[k]; ok && len(c.Keywords) == 0 {
			c.Keywords = keywordsValue(v)
		}
	}
	if c.Title != "" || c.Summary != "" || len(c.Keywords) > 0 {
		return c, true
	}
	if depth == 0 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if inner, ok := m[k].(map[string]any); ok {
				if c, ok := cardFromMap(inner, 1); ok {
					return c, true
				}
			}
		}
	}
	return Card{}, false
}

func titleValue(v any) string {
	switch t := v.(type) {
	case string:
		t = cleanTitle(t)
		if !meaningfulTitle(t, "") {
			return ""
		}
		return t
	case []any:
		if len(t) > 0 {
			return titleValue(t[0])
		}
	}
	return ""
}

func summaryValue(v any) string {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case []any:
		var parts []string
		for _, p := range t {
			if ps, ok := p.(string); ok {
				parts = append(parts, strings.TrimSpace(ps))
			}
		}
		s = strings.Join(parts, " ")
	default:
		return ""
	}
	return clampSummary(cleanLine(s))
}

// clampSummary keeps a summary under 400 characters, preferably ending at
// a sentence boundary.
func clampSummary(s string) string {
	if utf8.RuneCountInString(s) <= maxSummaryRunes {
		return s
	}
	var out []string
	total := 0
	splitSentences(s, func(sent string) {
		if total < 0 {
			return
		}
		l := utf8.RuneCountInString(sent)
		if len(out) > 0 {
			l++
		}
		if total+l > maxSummaryRunes {
			total = -1
			return
		}
		out = append(out, sent)
		total += l
	})
	if len(out) == 0 {
		return truncateRunes(s, maxSummaryRunes)
	}
	return strings.Join(out, " ")
}

func keywordsValue(v any) []string {
	var raw []string
	switch t := v.(type) {
	case string:
		raw = strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '|' })
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				raw = append(raw, s)
			}
		}
	default:
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range raw {
		k = strings.ToLower(cleanLine(k))
		k = strings.Trim(k, " #\"'`.,;:!?-–—*()[]{}")
		if k == "" || utf8.RuneCountInString(k) > 40 || wordCount(k, 5) > 4 || !hasLetter(k) {
			continue
		}
		key := stemKey(k)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, k)
		if len(out) == maxKeywords {
			break
		}
	}
	return out
}
