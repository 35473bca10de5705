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
	f.Fuzz(func(t *testing.T, body string) {
		var patch map[string]json.RawMessage
		if json.Unmarshal([]byte(body), &patch) != nil {
			return
		}
		before := Defaults()
		snapshot, _ := json.Marshal(before)
		got, err := Apply(before, patch)
		if after, _ := json.Marshal(before); string(after) != string(snapshot) {
			t.Fatal("Apply changed its input")
		}
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if err := Validate(got); err != nil {
			t.Fatalf("accepted invalid settings: %v", err)
		}
	})
}
