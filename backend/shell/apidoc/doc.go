// Package apidoc is Trove's OpenAPI 3.1 document: the operations written
// down once, their request and response schemas reflected from the Go
// types the handlers encode. `go generate ./backend/apidoc` writes it to
// openapi.json, the copy kept in the repository and served at
// GET /api/openapi.json; a test fails while the two differ.
package apidoc

//go:generate go run ./gen openapi.json

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"

	"trove/backend/shell/views"
)

// Kept is the document as kept in the repository (and served).
//
//go:embed openapi.json
var Kept []byte

// Version is the API's version: it changes with every change a script
// could notice (docs/api-changes.md).
const Version = "2.2.0"

// Generate builds the document from the operations and the Go types.
func Generate() ([]byte, error) {
	g := newRegistry()
	paths := map[string]map[string]any{}
	for _, o := range operations {
		item := paths[o.path]
		if item == nil {
			item = map[string]any{}
			paths[o.path] = item
		}
		item[strings.ToLower(o.method)] = o.build(g)
	}
	g.ref(ErrorStatus{})
	g.ref(ErrorSuccess{})
	g.ref(ErrorBare{})
	g.ref(views.ResyncEvent{})
	g.defs["Event"] = eventSchema(g)
	doc := map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"info": map[string]any{
			"title":       "Trove local API",
			"version":     Version,
			"description": "Trove's REST API on 127.0.0.1. docs/api.md explains every endpoint; docs/api-changes.md lists changes.",
			"license":     map[string]any{"name": "see the repository's licence"},
		},
		"servers":  []any{map[string]any{"url": "http://127.0.0.1:8765", "description": "the default address (--addr, TROVE_ADDR)"}},
		"security": []any{map[string]any{}, map[string]any{"bearer": []any{}}},
		"paths":    paths,
		"components": map[string]any{
			"schemas": g.defs,
			"securitySchemes": map[string]any{"bearer": map[string]any{
				"type": "http", "scheme": "bearer",
				"description": "required only when Trove runs with TROVE_TOKEN"}},
		},
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	// The reflector refers to its own $defs; the document keeps them as components.
	raw = bytes.ReplaceAll(raw, []byte(`"#/$defs/`), []byte(`"#/components/schemas/`))
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// eventSchema is an event whose data's schema follows from its type.
func eventSchema(g *registry) *jsonschema.Schema {
	base := g.ref(EventEnvelope{})
	var kinds []*jsonschema.Schema
	for _, k := range eventKinds {
		kinds = append(kinds, &jsonschema.Schema{
			If:   &jsonschema.Schema{Properties: props("type", &jsonschema.Schema{Const: k.kind})},
			Then: &jsonschema.Schema{Properties: props("data", g.ref(k.payload))},
		})
	}
	return &jsonschema.Schema{
		Description: "one /api/updates event; its data's shape follows from its type",
		AllOf:       append([]*jsonschema.Schema{base}, kinds...),
	}
}

// props is the properties of one name.
func props(name string, s *jsonschema.Schema) *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	p := jsonschema.NewProperties()
	p.Set(name, s)
	return p
}
