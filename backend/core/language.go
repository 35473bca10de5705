package core

// IsLanguageCode reports whether s names a language as the index records
// it: an ISO 639-1 code, two ASCII letters in either case ("de", "JA").
// The filter and the lang: field both take exactly this.
func IsLanguageCode(s string) bool {
	if len(s) != 2 {
		return false
	}
	for i := 0; i < 2; i++ {
		c := s[i] | 0x20 // ASCII lower case
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
