-- The language of a file is counted for the facets from the copy of the
-- count keys held in memory (countkeys.go), so a change of language (the
-- text indexed again in another) makes that copy stale, as a change of
-- type or content does.
DROP TRIGGER files_version_update;
CREATE TRIGGER files_version_update AFTER UPDATE OF state, extension, size, content_hash, lang ON files
BEGIN UPDATE files_version SET n = n + 1; END;
