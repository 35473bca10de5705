package query

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 3, 20, 15, 0, 0, 0, time.Local)

func TestFields(t *testing.T) {
	q := ParseAt(`budget name:report path:src/**/*.go kind:images,pdf size:1mb..5mb lang:en author:"Jane Doe" pages:12 *.md`, now)
	if len(q.Terms) != 1 || q.Terms[0].Text != "budget" {
		t.Errorf("terms %+v", q.Terms)
	}
	if !reflect.DeepEqual(q.Names, []string{"*report*", "*.md"}) || !reflect.DeepEqual(q.Paths, []string{"src/**/*.go"}) {
		t.Errorf("names %q paths %q", q.Names, q.Paths)
	}
	if !reflect.DeepEqual(q.Kinds, []string{"images", "pdf"}) || !reflect.DeepEqual(q.Langs, []string{"en"}) {
		t.Errorf("kinds %q langs %q", q.Kinds, q.Langs)
	}
	if q.Size != (SizeRange{Min: 1 << 20, Max: 5 << 20}) {
		t.Errorf("size %+v", q.Size)
	}
	if !reflect.DeepEqual(q.Meta, []Meta{{"author", "Jane Doe"}, {"pages", "12"}}) {
		t.Errorf("meta %+v", q.Meta)
	}
	want := []Field{{"name", "report"}, {"path", "src/**/*.go"}, {"kind", "images,pdf"}, {"size", "1mb..5mb"},
		{"lang", "en"}, {"author", "Jane Doe"}, {"pages", "12"}, {"name", "*.md"}}
	if !reflect.DeepEqual(q.Fields, want) {
		t.Errorf("fields %+v", q.Fields)
	}
	if len(q.Errors) != 0 || len(q.Unknown) != 0 {
		t.Errorf("errors %v unknown %v", q.Errors, q.Unknown)
	}
}

func TestSizes(t *testing.T) {
	for in, want := range map[string]SizeRange{
		"size:>10mb":        {Min: 10<<20 + 1, Max: math.MaxInt64},
		"size:>=1k":         {Min: 1024, Max: math.MaxInt64},
		"size:10mb":         {Min: 10 << 20, Max: math.MaxInt64},
		"size:<1.5kb":       {Max: 1535},
		"size:<=2g":         {Max: 2 << 30},
		"size:..5mb":        {Max: 5 << 20},
		"size:100b..":       {Min: 100, Max: math.MaxInt64},
		"size:=42":          {Min: 42, Max: 42},
		"size:>1k size:<1m": {Min: 1025, Max: 1<<20 - 1},
	} {
		if q := ParseAt(in, now); q.Size != want || len(q.Errors) != 0 {
			t.Errorf("%s: %+v %v", in, q.Size, q.Errors)
		}
	}
	for _, in := range []string{"size:big", "size:..", "size:-3mb", "size:1e400"} {
		if q := ParseAt(in, now); len(q.Errors) != 1 || !strings.HasPrefix(q.Errors[0], "size: ") {
			t.Errorf("%s: %v", in, q.Errors)
		}
	}
}

func TestTimes(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.Local) }
	for in, want := range map[string][2]time.Time{
		"modified:2026-03":             {day(2026, 3, 1), day(2026, 4, 1)},
		"modified:>2026-01":            {day(2026, 2, 1), {}},
		"modified:>=2026-01":           {day(2026, 1, 1), {}},
		"modified:<2026":               {{}, day(2026, 1, 1)},
		"modified:<=2025-12-31":        {{}, day(2026, 1, 1)},
		"modified:>-7d":                {now.AddDate(0, 0, -7), {}},
		"modified:-2w":                 {now.AddDate(0, 0, -14), {}},
		"modified:<-1y":                {{}, now.AddDate(-1, 0, 0)},
		"modified:today":               {day(2026, 3, 20), day(2026, 3, 21)},
		"modified:2025..2026-02":       {day(2025, 1, 1), day(2026, 3, 1)},
		"after:2025 modified:<2026-02": {day(2025, 1, 1), day(2026, 2, 1)},
	} {
		q := ParseAt(in, now)
		if !q.After.Equal(want[0]) || !q.Before.Equal(want[1]) || len(q.Errors) != 0 {
			t.Errorf("%s: after %v before %v %v", in, q.After, q.Before, q.Errors)
		}
	}
	if q := ParseAt("created:2024", now); !q.Created.From.Equal(day(2024, 1, 1)) || !q.Created.To.Equal(day(2025, 1, 1)) {
		t.Errorf("created %+v", q.Created)
	}
	if q := ParseAt("modified:soon", now); len(q.Errors) != 1 || !strings.Contains(q.Errors[0], "-7d") {
		t.Errorf("bad time: %v", q.Errors)
	}
}

// A mistyped field is reported; colons of text stay text.
func TestUnknownFields(t *testing.T) {
	if q := ParseAt("auther:smith sise:10mb roof", now); !reflect.DeepEqual(q.Unknown, []string{"auther", "sise"}) {
		t.Errorf("unknown %v", q.Unknown)
	}
	for _, in := range []string{"http://example.com/a", "C:", `C:\Users`, "10:30", "localhost:8080", "a:b", "Note: call",
		"TODO:fix", "re:", "john 3:16"} {
		q := ParseAt(in, now)
		if len(q.Unknown) != 0 || len(q.Errors) != 0 || len(q.Terms) == 0 {
			t.Errorf("%q: %+v", in, q)
		}
	}
}

func TestBareGlobs(t *testing.T) {
	for in, want := range map[string][2][]string{
		"*.go":              {{"*.go"}, nil},
		"report-2026-*.pdf": {{"report-2026-*.pdf"}, nil},
		"src/**/*.go":       {nil, {"src/**/*.go"}},
		"file?.txt":         {{"file?.txt"}, nil},
	} {
		q := ParseAt(in, now)
		if !reflect.DeepEqual(q.Names, want[0]) || !reflect.DeepEqual(q.Paths, want[1]) || len(q.Terms) != 0 {
			t.Errorf("%s: names %q paths %q terms %+v", in, q.Names, q.Paths, q.Terms)
		}
	}
	// A prefix, a question and a word between question marks stay words.
	for _, in := range []string{"quart*", "what is this?", "the ?slip? effect", "the ?transverse curvature effect"} {
		if q := ParseAt(in, now); len(q.Names) != 0 || len(q.Paths) != 0 {
			t.Errorf("%s: names %q", in, q.Names)
		}
	}
}
