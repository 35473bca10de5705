package extract

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func scanText(t testing.TB, r io.Reader) (string, []string) {
	var text strings.Builder
	var events []string
	err := walkXML(context.Background(), r, xmlVisitor{
		start: func(e *xmlElem) { events = append(events, "<"+e.prefix+":"+e.local+" id="+e.attr("id")) },
		end:   func(local string) { events = append(events, "/"+local) },
		text:  func(b []byte) { text.Write(b) },
	}, newSink(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	return text.String(), events
}

func TestFastXML(t *testing.T) {
	doc := `<?xml version="1.0"?><!-- a <comment> --><w:doc xmlns:w="u"><w:p id='a&amp;b' x="1>2">` +
		`fish &amp; chips &#233;&#x263A; &unknown; <![CDATA[<raw> & ]]><w:br/></w:p></w:doc>`
	// One byte at a time exercises every refill boundary.
	text, events := scanText(t, iotest.OneByteReader(strings.NewReader(doc)))
	if text != "fish & chips é☺ &unknown; <raw> & " {
		t.Errorf("text %q", text)
	}
	want := "<w:doc id=|<w:p id=a&b|<w:br id=|/br|/p|/doc"
	if got := strings.Join(events, "|"); got != want {
		t.Errorf("events %s", got)
	}
}

// charData is what encoding/xml reads as text.
func charData(data []byte) (string, bool) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return b.String(), true
		}
		if err != nil {
			return "", false
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.Directive:
			return "", false // DTDs may define entities this scanner leaves alone
		}
	}
}

// On well-formed XML the scanner reads the same text as encoding/xml.
func FuzzFastXML(f *testing.F) {
	f.Add([]byte(`<a x="1>2">t&amp;<b/>u<![CDATA[v]]><!--c--></a>`))
	f.Add([]byte(`<?xml version="1.0"?><r><p>caf&#233; &lt;x&gt;</p></r>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, ok := charData(data)
		if !ok {
			scanText(t, bytes.NewReader(data)) // must not fail or hang either way
			return
		}
		got, _ := scanText(t, iotest.HalfReader(bytes.NewReader(data)))
		got = strings.ReplaceAll(strings.ReplaceAll(got, "\r\n", "\n"), "\r", "\n")
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}
