package extract

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// rtfHex writes bytes as RTF \'xx escapes.
func rtfHex(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, "\\'%02x", c)
	}
	return sb.String()
}

// TestRTFFontCharsetsAndSurrogates: text in a font whose \fcharset is
// Russian or Japanese is decoded in that code page, not the document's;
// \uN surrogate pairs give one character (an emoji).
func TestRTFFontCharsetsAndSurrogates(t *testing.T) {
	ru, _ := charmap.Windows1251.NewEncoder().Bytes([]byte("библиотека"))
	ja, _ := japanese.ShiftJIS.NewEncoder().Bytes([]byte("灯台守"))
	doc := `{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\froman\fcharset0 Times;}{\f1\fswiss\fcharset204 Arial;}{\f2\fnil\fcharset128 MS Mincho;}}` +
		`\pard\f0 caf\'e9 {\f1 ` + rtfHex(ru) + `} and {\f2 ` + rtfHex(ja) + `} back to caf\'e9 \uc1\u-10179?\u-8704? done\par}`
	got := extractBytes(t, "f.rtf", []byte(doc), Options{}).Text
	for _, want := range []string{"café библиотека and 灯台守 back to café", "😀 done"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}
