package views

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
