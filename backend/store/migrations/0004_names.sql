-- File names in trigrams, for substring matches: "port" finds report.pdf,
-- as locate-style tools do. Rows mirror fts_files (indexed files only).
CREATE VIRTUAL TABLE fts_names USING fts5(
  name,
  content='', contentless_delete=1,
  tokenize='trigram remove_diacritics 1'
);
INSERT INTO fts_names(fts_names, rank) VALUES('automerge', 8);
INSERT INTO fts_names(rowid, name) SELECT id, filename FROM files WHERE state = 'indexed' ORDER BY id;
-- Words of names, folders, titles, keywords and summaries, with their file
-- counts: spelling correction looks up names as well as text.
CREATE VIRTUAL TABLE fts_files_vocab USING fts5vocab(fts_files, row);
