// Package check validates answers of a running Trove against the OpenAPI
// document kept in the repository (apidoc.Kept): the test servers run
// every response their tests see through it, so a field added, renamed or
// retyped without the document changing fails the tests.
package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"trove/backend/shell/apidoc"
)

const docURL = "file:///trove/openapi.json"

// Checker holds the document's compiled schemas and counts what it checked.
type Checker struct {
	ops    []op
	errors *jsonschema.Schema // any error body, for paths no operation has
	event  *jsonschema.Schema
	resync *jsonschema.Schema

	mu   sync.Mutex
	seen map[string]int // "METHOD /path STATUS" -> responses checked
}

type op struct {
	method, path string
	segs         []string
	status       int
	stream       bool
	image        bool // raw image bytes, not JSON
	ok, failure  *jsonschema.Schema
}

var (
	once     sync.Once
	shared   *Checker
	errShare error
)

// Default is the checker of the kept document, built once per process.
func Default() (*Checker, error) {
	once.Do(func() { shared, errShare = New(apidoc.Kept) })
	return shared, errShare
}

// New compiles a checker for an OpenAPI document.
func New(doc []byte) (*Checker, error) {
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	if err := comp.AddResource(docURL, parsed); err != nil {
		return nil, err
	}
	compile := func(ptr ...string) (*jsonschema.Schema, error) {
		for i, p := range ptr {
			ptr[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
		}
		return comp.Compile(docURL + "#/" + strings.Join(ptr, "/"))
	}
	var paths struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]any `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc, &paths); err != nil {
		return nil, err
	}
	c := &Checker{seen: map[string]int{}}
	for path, item := range paths.Paths {
		for method, o := range item {
			x := op{method: strings.ToUpper(method), path: path, segs: segments(path)}
			for code, r := range o.Responses {
				if code == "default" {
					if x.failure, err = compile("paths", path, method, "responses", code, "content", "application/json", "schema"); err != nil {
						return nil, err
					}
					continue
				}
				x.status, _ = strconv.Atoi(code)
				if _, ok := r.Content["text/event-stream"]; ok {
					x.stream = true
					continue
				}
				if _, ok := r.Content["image/*"]; ok {
					x.image = true
					continue
				}
				if x.ok, err = compile("paths", path, method, "responses", code, "content", "application/json", "schema"); err != nil {
					return nil, err
				}
			}
			c.ops = append(c.ops, x)
		}
	}
	if c.event, err = compile("components", "schemas", "Event"); err != nil {
		return nil, err
	}
	if c.resync, err = compile("components", "schemas", "ResyncEvent"); err != nil {
		return nil, err
	}
	anyError := `{"anyOf": [{"$ref": "` + docURL + `#/components/schemas/ErrorStatus"}, {"$ref": "` + docURL + `#/components/schemas/ErrorSuccess"}, {"$ref": "` + docURL + `#/components/schemas/ErrorBare"}]}`
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(anyError))
	if err := comp.AddResource("file:///trove/any-error.json", v); err != nil {
		return nil, err
	}
	if c.errors, err = comp.Compile("file:///trove/any-error.json"); err != nil {
		return nil, err
	}
	return c, nil
}

// segments splits a path; trailing slashes are optional, as the router
// has them.
func segments(p string) []string {
	return strings.Split(strings.TrimRight(p, "/"), "/")
}

// find is the operation of a request; the path is matched as sent, and a
// literal segment wins over a parameter (/api/files/stats is not a file id).
func (c *Checker) find(method, rawPath string) *op {
	segs := segments(rawPath)
	var best *op
	bestParams := 0
	for i := range c.ops {
		o := &c.ops[i]
		if o.method != method || len(o.segs) != len(segs) {
			continue
		}
		match, params := true, 0
		for j, s := range o.segs {
			if strings.HasPrefix(s, "{") && segs[j] != "" {
				params++
			} else if s != segs[j] {
				match = false
				break
			}
		}
		if match && (best == nil || params < bestParams) {
			best, bestParams = o, params
		}
	}
	return best
}

// Response checks one answer. target is the request target as sent (path
// and query); answers outside /api and without a body are not the API's
// and pass.
func (c *Checker) Response(method, target string, status int, contentType string, body []byte) error {
	rawPath, _, _ := strings.Cut(target, "?")
	if u, err := url.Parse(target); err == nil && u.IsAbs() { // absolute-form target
		rawPath = u.EscapedPath()
	}
	if !strings.HasPrefix(rawPath, "/api/") && rawPath != "/api" || method == "HEAD" || method == "OPTIONS" || len(body) == 0 {
		return nil
	}
	media, _, _ := mime.ParseMediaType(contentType)
	o := c.find(method, rawPath)
	if o == nil || status == 431 {
		// 431: the request line was too long to read, so the answer
		// cannot know the endpoint's family: any error shape will do.
		if media != "application/json" {
			return nil // an odd spelling of a path may reach the web UI
		}
		if o != nil {
			c.count(o.method+" "+o.path, status)
		} else {
			c.count(method+" (no operation)", status)
		}
		return validate(c.errors, body, "an error body")
	}
	c.count(o.method+" "+o.path, status)
	schema, want := o.failure, "application/json"
	if status == o.status {
		schema = o.ok
		if o.stream {
			want = "text/event-stream"
		}
		if o.image {
			if !strings.HasPrefix(media, "image/") || media == "image/svg+xml" {
				return fmt.Errorf("%s %s answered %d with Content-Type %q; the document says an image (not SVG)", method, rawPath, status, contentType)
			}
			return nil
		}
	}
	if media != want {
		return fmt.Errorf("%s %s answered %d with Content-Type %q; the document says %s", method, rawPath, status, contentType, want)
	}
	if schema == nil {
		return nil
	}
	if err := validate(schema, body, fmt.Sprintf("the %d answer of %s %s", status, o.method, o.path)); err != nil {
		return fmt.Errorf("%w\n(if the change is meant, run `go generate ./backend/apidoc` and note it in docs/api-changes.md)", err)
	}
	return nil
}

// Event checks one /api/updates event: its SSE name and data line.
func (c *Checker) Event(kind string, data []byte) error {
	c.count("EVENT "+kind, 0)
	if kind == "resync" {
		return validate(c.resync, data, "a resync event")
	}
	var e struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &e); err != nil || e.Type != kind {
		return fmt.Errorf("event %q: data %s does not name its kind", kind, data)
	}
	return validate(c.event, data, "a "+kind+" event")
}

func validate(s *jsonschema.Schema, body []byte, what string) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s is not JSON: %v: %.200q", what, err, body)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("%s does not match the OpenAPI document: %v\nbody: %.2000s", what, err, body)
	}
	return nil
}

func (c *Checker) count(key string, status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen[key+" "+strconv.Itoa(status)]++
}

// Report says what was checked: each operation (or event kind) with its
// status and count, the number of operations, and the responses in all.
func (c *Checker) Report() (lines []string, operations, responses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops := map[string]bool{}
	for k, n := range c.seen {
		lines = append(lines, fmt.Sprintf("%6d  %s", n, k))
		key := k[:strings.LastIndexByte(k, ' ')]
		if !strings.HasPrefix(key, "EVENT ") && !strings.HasSuffix(key, "(no operation)") {
			ops[key] = true
			responses += n
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][8:] < lines[j][8:] })
	return lines, len(ops), responses
}

// Seen reports whether an operation ("GET /api/status/") was checked.
func (c *Checker) Seen(operation string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.seen {
		if strings.HasPrefix(k, operation+" ") {
			return true
		}
	}
	return false
}
