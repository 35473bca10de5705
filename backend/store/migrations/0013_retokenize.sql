-- The text of files indexed before now is indexed again, in the
-- background (retokenize.go): their languages told again piece by piece
-- (tokens.Detect), and their stems marked with the language (tokens.
-- IndexTerm). This is where it starts: the first file id not yet written
-- again. Searches find both kinds of rows meanwhile.
INSERT INTO meta(key, value) SELECT 'text_retokenize_after', '0' WHERE EXISTS (SELECT 1 FROM chunks);
