package core

import (
	"errors"
	"strings"
	"testing"
)

func TestSafeTurnsAPanicIntoAnError(t *testing.T) {
	err := Safe(func() {
		var s []int
		_ = s[3]
	})
	var p *PanicError
	if !errors.As(err, &p) || !strings.Contains(p.Error(), "index out of range") || !strings.Contains(string(p.Stack), "panic_test.go") {
		t.Fatalf("got %v", err)
	}
	if err := Safe(func() {}); err != nil {
		t.Fatalf("no panic gave %v", err)
	}
}
