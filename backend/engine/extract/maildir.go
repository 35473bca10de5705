package extract

import (
	"bytes"
	"strings"
)

// Maildir folders (cur/, new/, tmp/) hold one message per file, named
// "<seconds>.<unique>.<host>" with ":2,<flags>" once read, and no
// extension: the host part can even end in one (".md", ".com"). A file
// with such a name whose first line is a header is read as an email,
// before the extension or the text sniffer can claim it.

// maildirName tells whether a base name has the shape of a Maildir file.
func maildirName(name string) bool {
	digits := 0
	for digits < len(name) && name[digits] >= '0' && name[digits] <= '9' {
		digits++
	}
	if digits < 9 || digits >= len(name) || name[digits] != '.' {
		return false
	}
	unique, host, ok := strings.Cut(name[digits+1:], ".")
	if !ok || unique == "" || host == "" {
		return false
	}
	if _, info, ok := strings.Cut(host, ":"); ok {
		return strings.HasPrefix(info, "2,")
	}
	return true
}

// startsWithHeader accepts a first line of the form "Name: value".
func startsWithHeader(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return false
	}
	for _, c := range line[:colon] {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}
