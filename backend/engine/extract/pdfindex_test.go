package extract

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// objHeaderRe is what objHeader finds without a regular expression.
var objHeaderRe = regexp.MustCompile(`(\d{1,10})\s+(\d{1,5})\s+obj\b`)

func checkObjHeader(t *testing.T, w []byte) {
	t.Helper()
	want := objHeaderRe.FindSubmatchIndex(w)
	got, ok := objHeader(w)
	if ok != (want != nil) || ok && !slices.Equal(got[:], want) {
		t.Fatalf("objHeader(%q) = %v, %v; the expression finds %v", w, got, ok, want)
	}
}

// TestObjHeaderMatchesExpression compares objHeader with the expression on
// the windows index gives it: up to 20 bytes before an "obj" and the obj,
// made of the bytes that decide a match.
func TestObjHeaderMatchesExpression(t *testing.T) {
	for _, w := range []string{
		"12 0 obj", "endobj\n12 0 obj", "x12 0 obj", "12345678901 0 obj", "1 123456 obj",
		"1 0 obj 2 0 obj", "1 0 objx 2 0 obj", "1\t\r\n\f0\n\nobj", "1\v0 obj", "1 0 obj_",
		"1 0 ob", "", "obj", "0 0 obj", "007 00 obj>>", "1 0 obj\x00",
	} {
		checkObjHeader(t, []byte(w))
	}
	r := rand.New(rand.NewPCG(3, 3))
	alphabet := []byte("0123456789  \t\n\r\f\vobjx_<>\x00")
	matched := 0
	for range 20000 {
		w := make([]byte, r.IntN(21))
		for i := range w {
			w[i] = alphabet[r.IntN(len(alphabet))]
		}
		if r.IntN(4) > 0 {
			w = append(w, "obj"...)
		}
		if r.IntN(8) == 0 {
			w = append(w, alphabet[r.IntN(len(alphabet))])
		}
		checkObjHeader(t, w)
		if objHeaderRe.Match(w) {
			matched++
		}
	}
	if matched < 200 {
		t.Fatalf("only %d random windows held a header: the test checks too little", matched)
	}
}
