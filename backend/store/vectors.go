package store

import (
	"context"
	"fmt"
)

// CountWithoutVectors is the number of indexed files that have no vectors
// of model: indexed while the embedding provider did not answer, or by an
// earlier model whose re-embedding did not finish.
func (s *Store) CountWithoutVectors(ctx context.Context, model string) (int, error) {
	var n int
	err := s.rdb().QueryRowContext(ctx, `SELECT count(*) FROM files WHERE state = 'indexed' AND embed_model != ?`, model).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count files without vectors: %w", err)
	}
	return n, nil
}
