package core

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the web UI's event types from the Go ones")

// webEvents is the web UI's copy of the event payload types.
const webEvents = "../../frontend/src/lib/events.ts"

// The web UI's event types are generated from the Go payload types, so a
// field added, renamed or retyped here fails this test until the
// TypeScript is regenerated (go test ./backend/core -run
// TestEventTypesMatchTheWebUI -update) and the UI adjusted to it.
func TestEventTypesMatchTheWebUI(t *testing.T) {
	want := eventsTS()
	if *update {
		if err := os.WriteFile(webEvents, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(webEvents)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not what the Go event types generate; run with -update and check the UI.\n--- want ---\n%s", webEvents, want)
	}
}

// The generator must notice a change of shape, or the test above proves
// nothing.
func TestEventTypesGeneratorSeesFields(t *testing.T) {
	type probe struct {
		A int64            `json:"a"`
		B *string          `json:"b"`
		C []string         `json:"c"`
		D map[string]int64 `json:"d"`
		E time.Time        `json:"e"`
		F bool             `json:"f,omitempty"`
		G string           `json:"-"`
		H float64
	}
	g := newTSGen()
	g.iface(reflect.TypeOf(probe{}))
	out := g.out.String()
	for _, line := range []string{"a: number;", "b: string | null;", "c: string[] | null;", "d: Record<string, number> | null;", "e: string;", "f?: boolean;", "H: number;"} {
		if !strings.Contains(out, line) {
			t.Errorf("generated %q lacks %q", out, line)
		}
	}
	if strings.Contains(out, "G") {
		t.Errorf("a field without JSON was generated: %s", out)
	}
}

func eventsTS() string {
	g := newTSGen()
	g.out.WriteString("// Generated from backend/core/event.go by TestEventTypesMatchTheWebUI; do not edit.\n")
	g.out.WriteString("// Regenerate: go test ./backend/core -run TestEventTypesMatchTheWebUI -update\n\n")
	var kinds strings.Builder
	for _, p := range EventPayloads {
		name := g.name(reflect.TypeOf(p))
		fmt.Fprintf(&kinds, "  '%s': %s;\n", p.EventKind(), name)
	}
	g.flush()
	g.out.WriteString("/** The payload (data) of each kind of event on /api/updates. */\n")
	g.out.WriteString("export interface EventPayloads {\n" + kinds.String() + "}\n\n")
	g.out.WriteString("export type EventKind = keyof EventPayloads;\n")
	return g.out.String()
}

// tsGen writes TypeScript interfaces for Go structs as encoding/json
// shows them.
type tsGen struct {
	out     strings.Builder
	done    map[reflect.Type]bool
	pending []reflect.Type
}

func newTSGen() *tsGen { return &tsGen{done: map[reflect.Type]bool{}} }

// jsonShapes maps types that marshal themselves to the struct whose shape
// they write.
var jsonShapes = map[reflect.Type]reflect.Type{
	reflect.TypeOf(EmbeddingHealth{}): reflect.TypeOf(embeddingJSON{}),
}

func (g *tsGen) name(t reflect.Type) string {
	if !g.done[t] {
		g.done[t] = true
		g.pending = append(g.pending, t)
	}
	return t.Name()
}

func (g *tsGen) flush() {
	for len(g.pending) > 0 {
		t := g.pending[0]
		g.pending = g.pending[1:]
		g.iface(t)
	}
}

func (g *tsGen) iface(t reflect.Type) {
	shape := t
	if s, ok := jsonShapes[t]; ok {
		shape = s
	}
	fmt.Fprintf(&g.out, "export interface %s {\n", t.Name())
	for i := range shape.NumField() {
		f := shape.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		opt := ""
		if strings.Contains(opts, "omitempty") {
			opt = "?"
		}
		fmt.Fprintf(&g.out, "  %s%s: %s;\n", name, opt, g.ts(f.Type))
	}
	g.out.WriteString("}\n\n")
}

func (g *tsGen) ts(t reflect.Type) string {
	if t == reflect.TypeOf(time.Time{}) {
		return "string"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.ts(t.Elem()) + " | null"
	case reflect.Slice:
		return g.ts(t.Elem()) + "[] | null"
	case reflect.Map:
		return "Record<string, " + g.ts(t.Elem()) + "> | null"
	case reflect.Struct:
		return g.name(t)
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	}
	return "unknown"
}
