package core

import "testing"

func TestIsLanguageCode(t *testing.T) {
	for s, want := range map[string]bool{
		"de": true, "JA": true, "eN": true,
		"": false, "d": false, "deu": false, "d1": false, "ü": false, "@[": false, "zh-CN": false,
	} {
		if got := IsLanguageCode(s); got != want {
			t.Errorf("IsLanguageCode(%q) = %v, want %v", s, got, want)
		}
	}
}
