package store

import (
	"context"
	"fmt"
	"strconv"

	"trove/backend/store/tokens"
)

// When the way text becomes index terms changes (the stems' language
// marks, a better language detection), the text an older Trove indexed is
// written again in the background, a few files a step, each its own write
// transaction, in file id order; the meta key retokenizeKey holds the
// last file written (migration 0013 starts it). Searches meanwhile also
// look for the old rows' terms (langSet.unmarked), so nothing goes
// missing while it runs, and a file indexed again meanwhile is written
// the new way anyway.

// retokenizeKey keeps the id of the last file whose text was written
// again; without it, no old row remains.
const retokenizeKey = "text_retokenize_after"

// Retokenizing reports whether the text of some files waits to be written
// again (RetokenizeStep).
func (s *Store) Retokenizing() bool { return s.langs.unmarked.Load() }

// RetokenizeStep writes again the text of up to n files after the last
// one written: it tells each file's language from its passages again
// and indexes them in it. It reports whether files remain; once none do,
// searches look for the new terms alone.
func (s *Store) RetokenizeStep(ctx context.Context, n int) (more bool, err error) {
	after, ok, err := s.retokenizeAfter(ctx)
	if err != nil {
		return false, err
	}
	if !ok { // none left (an index rebuilt meanwhile holds no old row)
		s.langs.unmarked.Store(false)
		return false, nil
	}
	var langs []string
	err = s.tx(ctx, func(tx *writeTx) error {
		ids, err := queryList[int64](ctx, tx, `SELECT id FROM files WHERE id > ? AND EXISTS (SELECT 1 FROM chunks WHERE file_id = files.id) ORDER BY id LIMIT ?`, after, n)
		if err != nil {
			return err
		}
		for _, id := range ids {
			lang, err := retokenize(ctx, tx, id)
			if err != nil {
				return err
			}
			langs = append(langs, lang)
		}
		more = len(ids) == n
		if !more {
			_, err = tx.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, retokenizeKey)
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = ?`, strconv.FormatInt(ids[len(ids)-1], 10), retokenizeKey)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("index text again: %w", err)
	}
	// A language told for the first time is one queries stem in at once.
	s.langs.add(1, langs...)
	if !more {
		s.langs.unmarked.Store(false)
		return false, s.loadCounts() // the languages as the files now have them
	}
	return true, nil
}

func (s *Store) retokenizeAfter(ctx context.Context) (int64, bool, error) {
	v, ok, err := s.Meta(ctx, retokenizeKey)
	if err != nil || !ok {
		return 0, ok, err
	}
	after, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, true, nil // a value no Trove wrote: start again
	}
	return after, true, nil
}

// retokenize writes file id's text again, in the language its passages
// are told to be in, which it returns.
func retokenize(ctx context.Context, tx *writeTx, id int64) (string, error) {
	var text string
	err := tx.QueryRowContext(ctx, `SELECT coalesce(group_concat(text, char(10, 10) ORDER BY ord), '') FROM chunks WHERE file_id = ?`, id).Scan(&text)
	if err != nil {
		return "", err
	}
	lang := tokens.Detect(text)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE files SET lang = ? WHERE id = ?`, []any{lang, id}},
		{`DELETE FROM fts_content WHERE rowid = ?`, []any{id}},
		{`INSERT INTO fts_content(rowid, text) VALUES(?, fts5_locale(?, ?))`, []any{id, lang, text}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return "", err
		}
	}
	return lang, nil
}
