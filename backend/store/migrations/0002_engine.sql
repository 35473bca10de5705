-- Indexing engine support.
-- Document frequencies for keyword scoring, read from the passage index.
CREATE VIRTUAL TABLE fts_chunks_vocab USING fts5vocab(fts_chunks, row);
-- Content-hash lookups: a file that reappears under another name is
-- adopted instead of re-extracted.
CREATE INDEX files_by_hash ON files(content_hash, size) WHERE content_hash != '';
