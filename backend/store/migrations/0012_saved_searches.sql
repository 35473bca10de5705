-- Saved searches: a search request kept under a name, to run again from
-- any client. The request is kept as the API receives it (query, folder,
-- filters as JSON, sort, order, mode), so the search endpoint's checks
-- apply to it each time it runs. name_key is the name as compared (trimmed
-- and lower-cased), so no two saved searches differ only by case.
CREATE TABLE saved_searches (
  id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a stale id must not run another search
  name         TEXT NOT NULL,
  name_key     TEXT NOT NULL UNIQUE,
  query        TEXT NOT NULL,
  directory    TEXT NOT NULL DEFAULT '', -- '' for every folder
  filters      TEXT NOT NULL DEFAULT '', -- the request's filters object as JSON; '' for none
  sort         TEXT NOT NULL DEFAULT '',
  sort_order   TEXT NOT NULL DEFAULT '',
  mode         TEXT NOT NULL DEFAULT '',
  notify       INTEGER NOT NULL DEFAULT 0,
  created_ns   INTEGER NOT NULL,
  updated_ns   INTEGER NOT NULL,
  -- For notifications: every file up to this id was checked against the
  -- search (file ids are never reused, so the files after it are new).
  seen_file_id INTEGER NOT NULL DEFAULT 0
) STRICT;
