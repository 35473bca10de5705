package apidoc

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"trove/backend/core"
	"trove/backend/shell/views"
)

// registry turns Go types into JSON Schemas (draft 2020-12, the dialect of
// OpenAPI 3.1) and collects every named type it meets, so the document's
// components are exactly the types the handlers encode.
type registry struct {
	r     *jsonschema.Reflector
	req   *jsonschema.Reflector // for request bodies, whose fields are optional
	defs  map[string]*jsonschema.Schema
	types map[string]reflect.Type
}

func newRegistry() *registry {
	g := &registry{defs: map[string]*jsonschema.Schema{}, types: map[string]reflect.Type{}}
	g.r = &jsonschema.Reflector{
		// A field the document does not name is drift: refuse it.
		AllowAdditionalProperties: false,
		Namer:                     g.name,
		Mapper:                    mapped,
	}
	g.req = &jsonschema.Reflector{RequiredFromJSONSchemaTags: true, Namer: g.name, Mapper: mapped}
	return g
}

// name is a type's component name; types of the same name in two packages
// would collide, so the second one panics at generation time.
func (g *registry) name(t reflect.Type) string {
	n := t.Name()
	if n == "" {
		return n
	}
	if prev, ok := g.types[n]; ok && prev != t {
		panic("apidoc: two types named " + n + ": " + prev.PkgPath() + " and " + t.PkgPath())
	}
	g.types[n] = t
	return n
}

// ref reflects v's type and returns a reference to its schema.
func (g *registry) ref(v any) *jsonschema.Schema { return g.add(g.r.Reflect(v)) }

// request is ref for a request body: its fields are optional unless
// required names them, and unknown ones are refused (as the API does).
func (g *registry) request(v any, required ...string) *jsonschema.Schema {
	s := g.add(g.req.Reflect(v))
	if name := strings.TrimPrefix(s.Ref, "#/$defs/"); len(required) > 0 && g.defs[name] != nil {
		g.defs[name].Required = required
	}
	return s
}

func (g *registry) add(s *jsonschema.Schema) *jsonschema.Schema {
	for name, def := range s.Definitions {
		if t, ok := g.types[name]; ok {
			nullables(def, t)
		}
		g.defs[name] = def
		for prop, v := range described[name] {
			def.Properties.Set(prop, &jsonschema.Schema{AnyOf: []*jsonschema.Schema{g.add(g.req.Reflect(v)), {Type: "null"}}})
		}
	}
	s.Definitions = nil
	s.Version = ""
	return s
}

// described are the request fields views keeps raw, so that it can name
// each mistake in them, with the shape they accept.
var described = map[string]map[string]any{
	"SearchRequest":      {"filters": views.SearchFilters{}},
	"SavedSearchRequest": {"filters": views.SearchFilters{}},
	"SavedSearchChange":  {"filters": views.SearchFilters{}},
	"SavedSearch":        {"filters": views.SearchFilters{}},
}

// nullables lets the fields that encode as null (pointers, maps, any)
// be null, as encoding/json writes them.
func nullables(def *jsonschema.Schema, t reflect.Type) {
	if def.Properties == nil || t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			nullables(def, f.Type)
			continue
		}
		name := jsonName(f)
		if name == "" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Map:
		default:
			continue
		}
		if p, ok := def.Properties.Get(name); ok && p != nil && len(p.AnyOf) == 0 {
			def.Properties.Set(name, &jsonschema.Schema{AnyOf: []*jsonschema.Schema{p, {Type: "null"}}})
		}
	}
}

func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch tag {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return tag
}

// embeddingHealth is core.EmbeddingHealth as its MarshalJSON writes it.
type embeddingHealth struct {
	State          string  `json:"state" jsonschema:"enum=ok,enum=failing"`
	Model          string  `json:"model"`
	Message        string  `json:"message"`
	Since          *string `json:"since" jsonschema:"description=when the provider started failing (UTC); null while ok"`
	FailedRequests int     `json:"failed_requests"`
}

// mapped gives the schemas of types whose JSON is written by hand.
func mapped(t reflect.Type) *jsonschema.Schema {
	switch t {
	case reflect.TypeFor[core.EmbeddingHealth]():
		return inline(embeddingHealth{})
	case reflect.TypeFor[json.RawMessage]():
		return &jsonschema.Schema{}
	case reflect.TypeFor[views.StringList]():
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "array", Items: &jsonschema.Schema{Type: "string"}}}}
	}
	return nil
}

// inline is v's schema without references.
func inline(v any) *jsonschema.Schema {
	r := &jsonschema.Reflector{DoNotReference: true, AllowAdditionalProperties: false}
	s := r.Reflect(v)
	s.Version, s.ID = "", ""
	nullables(s, reflect.TypeOf(v))
	return s
}
