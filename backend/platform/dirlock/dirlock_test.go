package dirlock

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestSecondAcquireNamesTheHolder(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.SetAddr("127.0.0.1:8765"); err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file, so a second open in the same
	// process conflicts as another process would.
	_, err = Acquire(dir)
	var held *HeldError
	if !errors.As(err, &held) || held.Holder.PID != os.Getpid() || held.Holder.Addr != "127.0.0.1:8765" {
		t.Fatalf("second acquire: %v", err)
	}
	if !strings.Contains(err.Error(), "Trove is already running (pid ") || !strings.Contains(err.Error(), "http://127.0.0.1:8765) with this data directory") {
		t.Fatalf("message: %s", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Release()
}
