package core

// The faults: each way a request can fail, named in the engine's words
// and of one kind. The engine says which (Fail, FailField); the shells
// give each its API code (views/codes.go), so no code is spelled here or
// below. Faults are compared with errors.Is.

var (
	AlreadyWatching     = &Fault{kind: ErrConflict, name: "the folder, or one above it, is watched already"}
	BadDirectory        = &Fault{kind: ErrInvalid, name: "a folder to search in that is not a watched one"}
	BadFilter           = &Fault{kind: ErrInvalid, name: "a search filter that cannot be applied"}
	BadID               = &Fault{kind: ErrInvalid, name: "an id that is not a positive integer"}
	BadJSON             = &Fault{kind: ErrInvalid, name: "a body that is not JSON, or not of the shape asked"}
	BadLimit            = &Fault{kind: ErrInvalid, name: "a number of results out of its range"}
	BadMode             = &Fault{kind: ErrInvalid, name: "a filter mode that does not exist"}
	BadName             = &Fault{kind: ErrInvalid, name: "a saved search's name that is blank, too long or not text"}
	BadNumber           = &Fault{kind: ErrInvalid, name: "a number a setting cannot hold"}
	BadParameter        = &Fault{kind: ErrInvalid, name: "a request parameter of the wrong value"}
	BadPath             = &Fault{kind: ErrInvalid, name: "a path that cannot be watched: missing, relative, not a folder, Trove's own"}
	BadPattern          = &Fault{kind: ErrInvalid, name: "a filter pattern that cannot be read"}
	BadPatternType      = &Fault{kind: ErrInvalid, name: "a filter pattern type that does not exist"}
	BadQuery            = &Fault{kind: ErrInvalid, name: "a query that cannot be read"}
	BadRule             = &Fault{kind: ErrInvalid, name: "a scheduler rule that cannot be applied"}
	BadType             = &Fault{kind: ErrInvalid, name: "a value of the wrong JSON type"}
	BadValue            = &Fault{kind: ErrInvalid, name: "a value a setting does not take"}
	DamagedIndex        = &Fault{kind: ErrUnavailable, name: "the index is damaged until it is rebuilt"}
	EmptyUpdate         = &Fault{kind: ErrInvalid, name: "a change that changes nothing"}
	FileChanged         = &Fault{kind: ErrConflict, name: "an indexed file changed on disk since it was indexed"}
	FileGone            = &Fault{kind: ErrNotFound, name: "an indexed file is no longer on disk as it was indexed"}
	FolderOffline       = &Fault{kind: ErrUnavailable, name: "a file whose folder's drive or share is not there now"}
	MissingField        = &Fault{kind: ErrInvalid, name: "a field the request must carry"}
	NameTaken           = &Fault{kind: ErrConflict, name: "a saved search's name that another saved search has"}
	NeedsThePerson      = &Fault{kind: ErrForbidden, name: "a change only the person may make (where file text goes), asked by a caller that did not show it is the person"}
	NoApplication       = &Fault{kind: ErrInvalid, name: "no application opens the file's type"}
	NoClipboard         = &Fault{kind: ErrInvalid, name: "no clipboard to copy to"}
	NoOpener            = &Fault{kind: ErrInvalid, name: "this Trove cannot open files"}
	NoThumbnail         = &Fault{kind: ErrInvalid, name: "a file Trove draws no small picture of"}
	NoWindow            = &Fault{kind: ErrInvalid, name: "no window to show"}
	NotAnImage          = &Fault{kind: ErrInvalid, name: "a file the preview does not show as an image"}
	NotIndexed          = &Fault{kind: ErrNotFound, name: "a file the index knows but did not index"}
	NotSupported        = &Fault{kind: ErrInvalid, name: "something this system cannot do"}
	OpenFailed          = &Fault{kind: ErrInvalid, name: "opening the file failed"}
	OutOfRange          = &Fault{kind: ErrInvalid, name: "a setting out of its range"}
	ProviderUnavailable = &Fault{kind: ErrInvalid, name: "a model provider that did not answer its test call"}
	ReadTimeout         = &Fault{kind: ErrInvalid, name: "a file's read did not finish within its time"}
	RebuildRunning      = &Fault{kind: ErrConflict, name: "a rebuild of the index is under way"}
	SearchCancelled     = &Fault{kind: ErrUnavailable, name: "a search cancelled by a newer one, or by its caller"}
	SearchTimeout       = &Fault{kind: ErrUnavailable, name: "a search past its time limit"}
	Starting            = &Fault{kind: ErrUnavailable, name: "Trove is still loading its watched folders"}
	TooLarge            = &Fault{kind: ErrInvalid, name: "a file too large for what was asked"}
	TooManyClients      = &Fault{kind: ErrUnavailable, name: "too many clients at once"}
	TooManySaved        = &Fault{kind: ErrConflict, name: "as many saved searches as Trove keeps"}
	UnknownFile         = &Fault{kind: ErrNotFound, name: "no indexed file has that id or path"}
	UnknownField        = &Fault{kind: ErrInvalid, name: "a field of the query language that does not exist"}
	UnknownFolder       = &Fault{kind: ErrNotFound, name: "no watched folder has that id"}
	UnknownItem         = &Fault{kind: ErrNotFound, name: "no queue item has that id"}
	UnknownPattern      = &Fault{kind: ErrNotFound, name: "no filter pattern is that"}
	UnknownSaved        = &Fault{kind: ErrNotFound, name: "no saved search has that id"}
	UnknownSetting      = &Fault{kind: ErrInvalid, name: "a setting that does not exist"}
	Untrusted           = &Fault{kind: ErrForbidden, name: "a caller that is not the person"}
	UnwritableIndex     = &Fault{kind: ErrUnavailable, name: "the index's disk is full or failing"}
)
