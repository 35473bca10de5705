package embedding

import (
	"slices"
	"testing"
)

// FuzzVector: any text gives a vector of Dim finite components that is
// unit length or zero, the same every time.
func FuzzVector(f *testing.F) {
	for _, s := range []string{
		"", "wing", "The pressure distribution on a supersonic wing.",
		"getUserName HTTPServer snake_case x86_64 utf8", "quokkas aeroelasticity",
		"日本語のテキストと English", "12 345 0x1f", "\x00\xff\xfe invalid utf8 \xc3",
		"ÀÉÎÕÜ ǅ ß ﬃ", "a a a a a a a a a a a a a a a a",
	} {
		f.Add(s)
	}
	b, err := NewBuiltin()
	if err != nil {
		f.Fatal(err)
	}
	s, err := semanticBuiltin()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, e := range []*Builtin{b, s} {
			v := e.Vector(text)
			checkVector(t, v, e.Dim())
			if !slices.Equal(v, e.Vector(text)) {
				t.Fatalf("%q: two calls differ", text)
			}
		}
	})
}
