-- Files are indexed in their language: files.lang is it (an ISO 639-1
-- code, '' when not known), and the text table's tokenizer, trove
-- (tokenizer.go), stems each row's words by the language it is given as
-- the row's locale and cuts Chinese and Japanese into bigrams.
ALTER TABLE files ADD COLUMN lang TEXT NOT NULL DEFAULT '';

-- The files indexed before: their language, told from their first
-- passages.
UPDATE files SET lang = trove_lang(coalesce(
  (SELECT group_concat(text, ' ' ORDER BY ord) FROM chunks WHERE file_id = files.id AND ord < 8), ''))
WHERE state = 'indexed';

-- Their text, indexed again from the passages it is kept in, in the same
-- form putText writes it.
CREATE VIRTUAL TABLE fts_text USING fts5(
  text,
  content='', contentless_delete=1, locale=1,
  tokenize='trove'
);
INSERT INTO fts_text(fts_text, rank) VALUES('automerge', 8);
INSERT INTO fts_text(rowid, text)
  SELECT id, fts5_locale(lang, (SELECT group_concat(text, char(10, 10) ORDER BY ord) FROM chunks WHERE file_id = files.id))
  FROM files WHERE EXISTS (SELECT 1 FROM chunks WHERE file_id = files.id) ORDER BY id;

DROP TABLE fts_content_vocab;
DROP TABLE fts_content;
ALTER TABLE fts_text RENAME TO fts_content;
CREATE VIRTUAL TABLE fts_content_vocab USING fts5vocab(fts_content, row);
