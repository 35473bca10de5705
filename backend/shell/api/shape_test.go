package api

import "testing"

// Each endpoint's errors take its family's shape, below it too, in any
// letter case and with trailing slashes; Trove's own file actions keep the
// status shape, but a file whose id merely spells one is a file.
func TestShapeOfFollowsTheFamilies(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		want         shape
	}{
		{"GET", "/api/status/", shapeStatus},
		{"GET", "/api/nowhere", shapeStatus},
		{"GET", "/api/files/stats", shapeBare},
		{"GET", "/api/files", shapeBare},
		{"GET", "/API/Files/7", shapeBare},
		{"GET", "/api/filesystem", shapeStatus},
		{"GET", "/api/files/7/preview", shapeStatus},
		{"GET", "/api/files/7/preview/", shapeStatus},
		{"GET", "/api/files/7/image", shapeStatus},
		{"GET", "/api/files/7/apps//", shapeStatus},
		{"POST", "/api/files/7/open-with", shapeStatus},
		{"POST", "/api/files/7/open", shapeBare},
		{"GET", "/api/files/preview", shapeBare},
		{"GET", "/api/files/apps/", shapeBare},
		{"PUT", "/api/filters/config", shapeSuccess},
		{"POST", "/api/watch/", shapeSuccess},
		{"POST", "/api/watch", shapeSuccess},
		{"POST", "/api/watch/directory", shapeStatus},
		{"DELETE", "/api/watch/jobs/3", shapeSuccess},
		{"DELETE", "/api/queue/items/x", shapeSuccess},
		{"DELETE", "/api/queue/items/", shapeSuccess},
		{"DELETE", "/api/queue/items", shapeStatus},
		{"GET", "/api/queue/items/x", shapeStatus},
	} {
		if got := shapeOf(tc.method, tc.path); got != tc.want {
			t.Errorf("%s %s: shape %d, want %d", tc.method, tc.path, got, tc.want)
		}
	}
}
