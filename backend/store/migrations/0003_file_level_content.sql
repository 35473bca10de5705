-- Full-text content at file level: one row per file instead of one per
-- passage. A common word then matches as many rows as files that hold it,
-- not passages (several times fewer), and FTS5 scores every match of a
-- query, so this bounds search latency; BM25 is computed per document, as
-- classic retrieval does. Passages stay in chunks, for snippets and vectors.
DROP TABLE fts_chunks_vocab;
DROP TABLE fts_chunks;
CREATE VIRTUAL TABLE fts_content USING fts5(
  text,
  content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE fts_content_vocab USING fts5vocab(fts_content, row);
-- Merge segments 8 at a time (default 4): about a third less rewriting while
-- indexing, for a few more segments per query.
INSERT INTO fts_content(fts_content, rank) VALUES('automerge', 8);
INSERT INTO fts_files(fts_files, rank) VALUES('automerge', 8);
-- The index is rebuilt from the files: folders stay, and their next scan
-- indexes everything again.
DELETE FROM fts_files;
DELETE FROM vectors;
DELETE FROM chunks;
DELETE FROM files;
DELETE FROM queue_items;
