package views

import (
	"slices"
	"strings"

	"trove/backend/core"
)

// StatusSuccess is the status of every answer of the status family.
const StatusSuccess = "success"

// Answers of the status family that wrap their data:
// {"status": "success", "data": ...}.
type (
	WatchDirectoryAnswer struct {
		Status string  `json:"status" jsonschema:"enum=success"`
		Data   Watched `json:"data"`
	}
	FolderListAnswer struct {
		Status string     `json:"status" jsonschema:"enum=success"`
		Data   FolderList `json:"data"`
	}
	ProblemListAnswer struct {
		Status string      `json:"status" jsonschema:"enum=success"`
		Data   ProblemList `json:"data"`
	}
	SearchStreamAnswer struct {
		Status string     `json:"status" jsonschema:"enum=success"`
		Data   StreamData `json:"data"`
	}
	RebuildAnswer struct {
		Status  string      `json:"status" jsonschema:"enum=success"`
		Message string      `json:"message"`
		Data    RebuildData `json:"data"`
	}
	RebuildData struct {
		Folders int `json:"folders" jsonschema:"description=watched folders kept and being indexed again"`
	}
)

// ResyncEvent is the data of the event that ends an /api/updates stream
// whose client must fetch the state again.
type ResyncEvent struct {
	Reason string `json:"reason"`
}

// EventTypes reads the types parameter of /api/updates: kinds separated by
// commas (blanks around them and empty ones ignored), each one Trove
// publishes. An unknown kind would filter out every event without a word,
// so it is refused, naming the kinds there are. None at all means every
// kind.
func EventTypes(raw string) ([]string, error) {
	known := make([]string, len(core.EventPayloads))
	for i, p := range core.EventPayloads {
		known[i] = p.EventKind()
	}
	var out []string
	for _, t := range strings.Split(raw, ",") {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
		case slices.Contains(known, t):
			out = append(out, t)
		default:
			return nil, core.FailField(core.BadParameter, "types", "%q is not an event kind (known: %s)", t, strings.Join(known, ", "))
		}
	}
	return out, nil
}
