// Package client is a typed Go client for Trove's local API (the OpenAPI
// document at GET /api/openapi.json describes every endpoint). It imports
// nothing of Trove's server, so a script's module stays small.
//
//	c := client.New("", "") // TROVE_ADDR and TROVE_TOKEN, or 127.0.0.1:8765
//	res, err := c.Search(ctx, client.SearchRequest{Query: "roof leak"})
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// DefaultAddr is where Trove listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8765"

// Client calls one Trove.
type Client struct {
	base  string
	token string
	http  *http.Client
}

// New makes a client for addr (host:port or http://host:port; empty:
// TROVE_ADDR, else DefaultAddr) with an optional bearer token (empty:
// TROVE_TOKEN).
func New(addr, token string) *Client {
	if addr == "" {
		addr = os.Getenv("TROVE_ADDR")
	}
	if addr == "" {
		addr = DefaultAddr
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	if token == "" {
		token = os.Getenv("TROVE_TOKEN")
	}
	return &Client{base: strings.TrimSuffix(addr, "/"), token: token, http: &http.Client{Timeout: 60 * time.Second}}
}

// Addr is the base URL the client calls.
func (c *Client) Addr() string { return c.base }

// Error is an answer of Trove that is not a success, from any of the API's
// three error shapes.
type Error struct {
	Status  int    // HTTP status
	Code    string // stable code, such as INVALID_QUERY
	Message string
	Field   string // the input field at fault, if one is
}

func (e *Error) Error() string {
	msg := e.Message
	if e.Field != "" && !strings.Contains(msg, e.Field) {
		msg = e.Field + ": " + msg
	}
	if e.Code != "" {
		return fmt.Sprintf("%s (%s)", msg, e.Code)
	}
	return msg
}

// UnreachableError means no Trove answered at the address.
type UnreachableError struct {
	Addr string
	Err  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach Trove at %s: %v", e.Addr, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// IsUnreachable reports whether err means Trove did not answer.
func IsUnreachable(err error) bool {
	var u *UnreachableError
	return errors.As(err, &u)
}

// do sends a request and decodes a 2xx answer into out (and keeps it as
// sent in raw, when given).
func (c *Client) do(ctx context.Context, method, path string, body, out any, raw ...*json.RawMessage) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &UnreachableError{Addr: c.base, Err: err}
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &UnreachableError{Addr: c.base, Err: err}
	}
	if resp.StatusCode/100 != 2 {
		return errorOf(resp.StatusCode, answer)
	}
	for _, r := range raw {
		*r = answer
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("unexpected answer from %s %s: %v", method, path, err)
	}
	return nil
}

// errorOf reads any of the three error shapes.
func errorOf(status int, raw []byte) error {
	var shapes struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Code    string          `json:"code"`
	}
	e := &Error{Status: status}
	if json.Unmarshal(raw, &shapes) != nil {
		e.Message = strings.TrimSpace(string(raw))
		if e.Message == "" {
			e.Message = http.StatusText(status)
		}
		return e
	}
	var nested struct{ Code, Message, Field string }
	var bare string
	switch {
	case json.Unmarshal(shapes.Error, &nested) == nil && nested.Message != "": // {"status":"error","error":{...}}
		e.Code, e.Message, e.Field = nested.Code, nested.Message, nested.Field
	case json.Unmarshal(shapes.Error, &bare) == nil: // {"error": "...", "code"}
		e.Code, e.Message = shapes.Code, bare
	default: // {"success": false, "message", "code"}
		e.Code, e.Message = shapes.Code, shapes.Message
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	return e
}

// Search runs POST /api/search/.
func (c *Client) Search(ctx context.Context, r SearchRequest) (*SearchResponse, error) {
	var out SearchResponse
	return &out, c.do(ctx, "POST", "/api/search/", r, &out, &out.Raw)
}

// Status runs GET /api/status/.
func (c *Client) Status(ctx context.Context) (*Status, error) {
	var out Status
	return &out, c.do(ctx, "GET", "/api/status/", nil, &out, &out.Raw)
}

// Folders lists the watched folders (GET /api/watched-directories).
func (c *Client) Folders(ctx context.Context) ([]Folder, error) {
	var out struct {
		Data FolderList `json:"data"`
	}
	if err := c.do(ctx, "GET", "/api/watched-directories", nil, &out); err != nil {
		return nil, err
	}
	return out.Data.Directories, nil
}

// Watch adds a folder (POST /api/watch/directory) and starts indexing it.
func (c *Client) Watch(ctx context.Context, path string) (*Watched, error) {
	return c.WatchFolder(ctx, WatchRequest{Path: path})
}

// WatchRequest is the body of POST /api/watch/directory.
type WatchRequest struct {
	Path string `json:"path"`
	// Force watches a folder Trove refuses as a system folder or its own:
	// what it holds (keys, device files) becomes searchable.
	Force bool `json:"force,omitempty"`
	// NamesOnly indexes names, paths, sizes and dates only: no file is read.
	NamesOnly bool `json:"names_only,omitempty"`
	// RescanSeconds rescans the folder on this schedule; 0: as its file
	// system needs (shares and FUSE mounts, whose changes inotify misses).
	RescanSeconds int `json:"rescan_seconds,omitempty"`
}

// WatchFolder is Watch with the request's options.
func (c *Client) WatchFolder(ctx context.Context, r WatchRequest) (*Watched, error) {
	var out struct {
		Data Watched `json:"data"`
	}
	return &out.Data, c.do(ctx, "POST", "/api/watch/directory", r, &out)
}

// Unwatch stops watching a folder and removes its files from the index.
func (c *Client) Unwatch(ctx context.Context, id int64) error {
	return c.do(ctx, "DELETE", fmt.Sprintf("/api/watch/jobs/%d", id), nil, nil)
}

// QueueStatus runs GET /api/queue/status.
func (c *Client) QueueStatus(ctx context.Context) (*QueueStatus, error) {
	var out QueueStatus
	return &out, c.do(ctx, "GET", "/api/queue/status", nil, &out)
}

// File returns one file's record.
func (c *Client) File(ctx context.Context, id int64) (*File, error) {
	var out File
	return &out, c.do(ctx, "GET", fmt.Sprintf("/api/files/%d", id), nil, &out)
}

// Lookup returns the record of an indexed path.
func (c *Client) Lookup(ctx context.Context, path string) (*File, error) {
	var out File
	return &out, c.do(ctx, "GET", "/api/files/lookup?path="+url.QueryEscape(path), nil, &out)
}

// SavedSearches lists the saved searches by name (GET /api/saved-searches).
func (c *Client) SavedSearches(ctx context.Context) ([]SavedSearch, error) {
	var out SavedSearchList
	if err := c.do(ctx, "GET", "/api/saved-searches", nil, &out); err != nil {
		return nil, err
	}
	return out.SavedSearches, nil
}

// SaveSearch keeps a search under a name (POST /api/saved-searches).
func (c *Client) SaveSearch(ctx context.Context, r SavedSearchRequest) (*SavedSearch, error) {
	var out SavedSearch
	return &out, c.do(ctx, "POST", "/api/saved-searches", r, &out)
}

// UpdateSavedSearch renames a saved search, turns its notifications on or
// off, or replaces its search (PUT /api/saved-searches/{id}).
func (c *Client) UpdateSavedSearch(ctx context.Context, id int64, ch SavedSearchChange) (*SavedSearch, error) {
	var out SavedSearch
	return &out, c.do(ctx, "PUT", fmt.Sprintf("/api/saved-searches/%d", id), ch, &out)
}

// DeleteSavedSearch forgets a saved search.
func (c *Client) DeleteSavedSearch(ctx context.Context, id int64) error {
	return c.do(ctx, "DELETE", fmt.Sprintf("/api/saved-searches/%d", id), nil, nil)
}

// RunSavedSearch runs a saved search and returns a page of its results,
// as Search does (POST /api/saved-searches/{id}/run).
func (c *Client) RunSavedSearch(ctx context.Context, id int64, page SavedRunRequest) (*SearchResponse, error) {
	var out SearchResponse
	return &out, c.do(ctx, "POST", fmt.Sprintf("/api/saved-searches/%d/run", id), page, &out, &out.Raw)
}
