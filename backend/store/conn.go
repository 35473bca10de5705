package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"
	sqlitedriver "github.com/ncruces/go-sqlite3/driver"

	"trove/backend/core"
)

// The index's connections are SQLite compiled to WebAssembly: each has its
// own linear memory, bounded (maxMemory), which grows and never shrinks.
// When an allocation fails there, the driver panics ("sqlite3: out of
// memory") instead of returning an error, and database/sql does not expect
// panics: a transaction that panics is neither rolled back nor released,
// and with one writer connection every later write would wait for ever.
//
// So the pools hand out guarded connections. A connection that saw a panic
// is marked spent; database/sql asks (driver.Validator) before it reuses a
// connection, and closes a spent one, which gives its memory back; the
// next write opens a fresh one. Rollback never panics (it reports a bad
// connection instead, which closes it), so a transaction always ends.
// Store.tx turns the panic itself into an error for its caller.

// maxMemory bounds each connection's memory: SQLite's page cache, FTS5's
// pending terms of a transaction, and the values bound to a statement (a
// file's whole text, written to fts_content in one row). MaxTextBytes is
// what one file's text may take within it.
const maxMemory = 512 << 20

// MaxTextBytes is the most text one file may bring to the index
// (extraction.max_text_mb cannot ask for more). FTS5 holds a row's terms in
// memory until the row is written, beside the text itself: 200 MB of text
// was measured to fit in maxMemory, so this leaves room to spare.
const MaxTextBytes = 100 << 20

// connector opens guarded connections on the database file at path,
// named by dsn.
type connector struct {
	inner driver.Connector
	path  string
	langs *langSet // for the text tokenizer
}

func newConnector(dsn, path string, langs *langSet) (*connector, error) {
	inner, err := (&sqlitedriver.SQLite{}).OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return &connector{inner: inner, path: path, langs: langs}, nil
}

func (c *connector) Driver() driver.Driver { return c.inner.Driver() }

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.inner.Connect(sqlite3.WithMaxMemory(ctx, maxMemory))
	if err != nil {
		return nil, err
	}
	// The shared-memory index of the WAL is made by the VFS without the
	// database's mode: it is made private once it is there.
	os.Chmod(c.path+"-shm", privateMode)
	conn := dc.(sqlitedriver.Conn)
	var regErr error
	if err := errors.Join(core.Safe(func() { regErr = registerFTS(conn.Raw(), c.langs) }), regErr); err != nil {
		conn.Close()
		return nil, fmt.Errorf("register full-text functions: %w", err)
	}
	return &guardedConn{Conn: conn}, nil
}

// guardedConn is a connection that is closed instead of reused once it
// has panicked (see above).
type guardedConn struct {
	sqlitedriver.Conn
	spent atomic.Bool
}

var (
	_ driver.Validator          = (*guardedConn)(nil)
	_ driver.SessionResetter    = (*guardedConn)(nil)
	_ driver.ConnBeginTx        = (*guardedConn)(nil)
	_ driver.ConnPrepareContext = (*guardedConn)(nil)
	_ driver.ExecerContext      = (*guardedConn)(nil)
	_ driver.NamedValueChecker  = (*guardedConn)(nil)
)

// IsValid tells database/sql whether the connection may be reused.
func (c *guardedConn) IsValid() bool { return !c.spent.Load() }

// ResetSession refuses a spent connection before it serves anyone again.
func (c *guardedConn) ResetSession(context.Context) error {
	if c.spent.Load() {
		return driver.ErrBadConn
	}
	return nil
}

// BeginTx begins a transaction and tells the transaction's handle, when
// the context carries one, which connection it runs on.
func (c *guardedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (tx driver.Tx, err error) {
	defer c.recoverTo(&err)
	tx, err = c.Conn.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	if h, ok := ctx.Value(txHandleKey{}).(*txHandle); ok {
		h.conn = c
	}
	return guardedTx{c: c, Tx: tx}, nil
}

func (c *guardedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (res driver.Result, err error) {
	defer c.recoverTo(&err)
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *guardedConn) PrepareContext(ctx context.Context, query string) (st driver.Stmt, err error) {
	defer c.recoverTo(&err)
	st, err = c.Conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &guardedStmt{c: c, Stmt: st}, nil
}

func (c *guardedConn) CheckNamedValue(v *driver.NamedValue) error {
	return c.Conn.(driver.NamedValueChecker).CheckNamedValue(v)
}

func (c *guardedConn) Close() (err error) {
	c.spent.Store(true)
	defer core.Recover(&err)
	return c.Conn.Close()
}

// recoverTo turns a panic of the driver into the statement's error and
// spends the connection, so database/sql closes it rather than reuse it.
func (c *guardedConn) recoverTo(err *error) {
	if r := recover(); r != nil {
		c.spent.Store(true)
		*err = panicked(r)
	}
}

// panicked is the error of a panic inside the index.
func panicked(r any) error {
	return fmt.Errorf("%w: %w", ErrPanicked, &core.PanicError{Value: r, Stack: debug.Stack()})
}

// guardedStmt is a statement of a guarded connection: its panics spend
// the connection too.
type guardedStmt struct {
	c *guardedConn
	driver.Stmt
}

func (s *guardedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (res driver.Result, err error) {
	defer s.c.recoverTo(&err)
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *guardedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (rows driver.Rows, err error) {
	defer s.c.recoverTo(&err)
	return s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
}

func (s *guardedStmt) CheckNamedValue(v *driver.NamedValue) error {
	return s.Stmt.(driver.NamedValueChecker).CheckNamedValue(v)
}

// guardedTx ends a transaction even when the connection is broken: a
// rollback that fails or panics spends the connection, and database/sql,
// which releases the connection from the transaction whatever the
// rollback says, then closes it.
type guardedTx struct {
	c *guardedConn
	driver.Tx
}

func (t guardedTx) Commit() (err error) {
	defer t.c.recoverTo(&err)
	return t.Tx.Commit()
}

func (t guardedTx) Rollback() (err error) {
	defer t.c.recoverTo(&err)
	if err = t.Tx.Rollback(); err != nil {
		t.c.spent.Store(true)
	}
	return err
}

// txHandle learns which connection a transaction runs on, so that the
// transaction's owner can mark it spent when its own code panics.
type txHandle struct{ conn *guardedConn }

type txHandleKey struct{}

// retire closes the transaction's connection once the transaction ends,
// instead of keeping it: its memory grew to hold a large write, and a
// fresh connection starts small.
func (h *txHandle) retire() {
	if h.conn != nil {
		h.conn.spent.Store(true)
	}
}

// run calls fn, turning its panic into an error and spending the
// transaction's connection: whatever fn left half done inside SQLite is
// not trusted again. (A statement that panics spends its connection
// itself; this covers the transaction's own code.)
func (h *txHandle) run(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			h.retire()
			err = panicked(r)
		}
	}()
	return fn()
}

// openDB opens a pool of guarded connections on the database file at
// path, named by dsn.
func openDB(dsn, path string, langs *langSet) (*sql.DB, error) {
	c, err := newConnector(dsn, path, langs)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(c), nil
}

// ErrPanicked marks a statement or a write transaction that panicked
// (SQLite ran out of memory, say): it was rolled back, and its connection
// is closed instead of reused.
var ErrPanicked = errors.New("the index failed")
