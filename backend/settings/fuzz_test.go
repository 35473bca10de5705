package settings

import (
	"encoding/json"
	"errors"
	"testing"

	"trove/backend/core"
)

// Any JSON object sent as an update either fails with ErrInvalid and changes
// nothing, or succeeds with settings that pass validation.
func FuzzUpdate(f *testing.F) {
	for _, s := range []string{
		`{"queue.max_concurrency": 3}`,
		`{"scheduler": {"rules": [{"type": "time_window", "start": "22:00", "end": "07:00", "days": ["mon"]}]}}`,
		`{"scheduler.rules": [{"type": "cpu_below", "percent": 1e400}]}`,
		`{"queue.cooldown_seconds": -0}`,
		`{"summarizer.base_url": "http://[::1]:99999"}`,
		`{"queue": {"max_retries": 1.0}}`,
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body string) {
		var patch map[string]json.RawMessage
		if json.Unmarshal([]byte(body), &patch) != nil {
			return
		}
		m, err := Open(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		before := m.Get()
		got, err := m.Update(patch)
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			if after := m.Get(); !equal(before, after) {
				t.Fatal("a rejected update changed settings")
			}
			return
		}
		if err := Validate(got); err != nil {
			t.Fatalf("accepted invalid settings: %v", err)
		}
	})
}

func equal(a, b core.Settings) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
