package store

import (
	"context"
	"time"
)

// QueueRow is a saved queue item.
type QueueRow struct {
	ID         string
	Path       string
	Dest       string
	Action     string
	DirID      int64
	EnqueuedAt time.Time
	ReadyAt    time.Time
	Retries    int
	LastError  string
}

// SaveQueue replaces the saved queue with rows, in one transaction.
func (s *Store) SaveQueue(ctx context.Context, rows []QueueRow) error {
	return s.tx(ctx, func(tx *writeTx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM queue_items`); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO queue_items(id, file_path, dir_id, action, dest_path, status,
			enqueued_at, cooldown_expires_at, retry_count, last_error) VALUES(?, ?, ?, ?, ?, 'cooling_down', ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, r := range rows {
			var dest any
			if r.Dest != "" {
				dest = r.Dest
			}
			if _, err := ins.ExecContext(ctx, r.ID, r.Path, r.DirID, r.Action, dest, unixSeconds(r.EnqueuedAt),
				unixSeconds(r.ReadyAt), r.Retries, r.LastError); err != nil {
				return err
			}
		}
		return nil
	})
}

// LoadQueue reads the saved queue.
func (s *Store) LoadQueue(ctx context.Context) ([]QueueRow, error) {
	rows, err := s.rdb().QueryContext(ctx, `SELECT id, file_path, COALESCE(dest_path, ''), action, COALESCE(dir_id, 0),
		enqueued_at, cooldown_expires_at, retry_count, last_error FROM queue_items`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []QueueRow
	for rows.Next() {
		var r QueueRow
		var enq, ready float64
		if err := rows.Scan(&r.ID, &r.Path, &r.Dest, &r.Action, &r.DirID, &enq, &ready, &r.Retries, &r.LastError); err != nil {
			return nil, err
		}
		r.EnqueuedAt, r.ReadyAt = fromUnixSeconds(enq), fromUnixSeconds(ready)
		out = append(out, r)
	}
	return out, rows.Err()
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

func fromUnixSeconds(f float64) time.Time { return time.Unix(0, int64(f*1e9)) }
