-- A number that changes whenever a file is added, removed, or changes its
-- state, type, size or content: a copy of those columns held in memory
-- (to count a search's matches without reading every matching row) is
-- current while this number is the one it was read with. Triggers keep
-- it, so no write path can forget to; folders removed take their files
-- with them through the foreign key, which fires the delete trigger too.
CREATE TABLE files_version (n INTEGER NOT NULL) STRICT;
INSERT INTO files_version VALUES (0);
CREATE TRIGGER files_version_insert AFTER INSERT ON files
BEGIN UPDATE files_version SET n = n + 1; END;
CREATE TRIGGER files_version_delete AFTER DELETE ON files
BEGIN UPDATE files_version SET n = n + 1; END;
CREATE TRIGGER files_version_update AFTER UPDATE OF state, extension, size, content_hash ON files
BEGIN UPDATE files_version SET n = n + 1; END;
