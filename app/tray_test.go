package app

import (
	"testing"

	"trove/backend/core"
)

func TestStatusLine(t *testing.T) {
	cases := []struct {
		files int64
		q     core.QueueStatus
		want  string
	}{
		{0, core.QueueStatus{}, "0 files indexed · up to date"},
		{1, core.QueueStatus{}, "1 file indexed · up to date"},
		{12408, core.QueueStatus{Total: 3}, "12,408 files indexed · 3 queued"},
		{1234567, core.QueueStatus{Total: 1000, Paused: true, PausedManually: true}, "1,234,567 files indexed · 1,000 queued · paused"},
		{5, core.QueueStatus{Total: 2, Paused: true, PausedByScheduler: true}, "5 files indexed · 2 queued · held by schedule"},
	}
	for _, c := range cases {
		if got := statusLine(c.files, c.q); got != c.want {
			t.Errorf("statusLine(%d, %+v) = %q, want %q", c.files, c.q, got, c.want)
		}
	}
}

func TestPauseLabelFollowsTheManualPause(t *testing.T) {
	if got := pauseLabel(core.QueueStatus{}); got != labelPause {
		t.Errorf("running: %q", got)
	}
	if got := pauseLabel(core.QueueStatus{Paused: true, PausedManually: true}); got != labelResume {
		t.Errorf("paused: %q", got)
	}
	// A scheduler hold is not undone from the tray: the item still pauses.
	if got := pauseLabel(core.QueueStatus{Paused: true, PausedByScheduler: true}); got != labelPause {
		t.Errorf("held by the scheduler: %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 123456: "123,456", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
