-- Trove index schema, version 1.
-- Times are Unix nanoseconds (INTEGER) except the queue's, which the API
-- reports as Unix seconds (REAL). Every table is STRICT so a wrong type is an
-- error, not a silent conversion.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

-- Folders Trove watches. indexed/failed counts are derived from files.
CREATE TABLE watched_directories (
  id             INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a stale job id must not hit a new job
  path           TEXT NOT NULL UNIQUE,
  is_active      INTEGER NOT NULL DEFAULT 1,
  recursive      INTEGER NOT NULL DEFAULT 1,
  file_pattern   TEXT,
  status         TEXT NOT NULL DEFAULT 'indexing',
  status_message TEXT NOT NULL DEFAULT '',
  file_count     INTEGER NOT NULL DEFAULT 0,
  last_scan_ns   INTEGER,
  created_ns     INTEGER NOT NULL,
  updated_ns     INTEGER NOT NULL
) STRICT;

-- One row per file Trove knows: indexed, or failed with its reason.
CREATE TABLE files (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  dir_id       INTEGER NOT NULL REFERENCES watched_directories(id) ON DELETE CASCADE,
  path         TEXT NOT NULL UNIQUE,
  filename     TEXT NOT NULL,
  extension    TEXT NOT NULL,
  mime         TEXT NOT NULL DEFAULT '',
  size         INTEGER NOT NULL,
  created_ns   INTEGER NOT NULL,
  modified_ns  INTEGER NOT NULL,
  accessed_ns  INTEGER NOT NULL,
  content_hash TEXT NOT NULL DEFAULT '',
  state        TEXT NOT NULL,
  error        TEXT NOT NULL DEFAULT '',
  title        TEXT NOT NULL DEFAULT '',
  summary      TEXT NOT NULL DEFAULT '',
  keywords     TEXT,                     -- JSON array of strings; NULL when none
  enrich_model TEXT NOT NULL DEFAULT '', -- who wrote title/summary/keywords
  embed_model  TEXT NOT NULL DEFAULT '', -- which model made this file's vectors
  indexed_ns   INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX files_by_dir ON files(dir_id, state);
CREATE INDEX files_by_state ON files(state, extension);

-- A file's text in passages of a few hundred words: the unit of snippets
-- and of semantic search.
CREATE TABLE chunks (
  id      INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  ord     INTEGER NOT NULL,
  text    TEXT NOT NULL,
  UNIQUE (file_id, ord)
) STRICT;

-- One embedding per chunk; files.embed_model names the model.
CREATE TABLE vectors (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  vec      BLOB NOT NULL
) STRICT;

-- Full-text indexes. Contentless (the text lives once, in chunks) with
-- contentless_delete so rows can be removed by rowid.
-- fts_files: rowid = files.id; name and path are the file name and folder
-- names split into words (camelCase, snake_case, kebab-case, extension).
CREATE VIRTUAL TABLE fts_files USING fts5(
  name, path, title, keywords, summary,
  content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2', prefix='2 3'
);
-- fts_chunks: rowid = chunks.id.
CREATE VIRTUAL TABLE fts_chunks USING fts5(
  text,
  content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
);

-- Pending indexing work, so a crash loses nothing queued.
CREATE TABLE queue_items (
  id                  TEXT PRIMARY KEY,          -- UUID
  file_path           TEXT NOT NULL UNIQUE,
  dir_id              INTEGER,
  action              TEXT NOT NULL,             -- index, delete, move
  dest_path           TEXT,
  status              TEXT NOT NULL,             -- cooling_down, ready, processing
  enqueued_at         REAL NOT NULL,
  cooldown_expires_at REAL NOT NULL,
  retry_count         INTEGER NOT NULL DEFAULT 0,
  last_error          TEXT NOT NULL DEFAULT ''
) STRICT;
