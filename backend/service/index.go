package service

import (
	"context"

	"trove/backend/store"
)

// indexErr turns the error of a read that hit a damaged page of the index
// into INDEX_DAMAGED, which names the way out (a rebuild), and records the
// damage for the status.
func (s *Service) indexErr(err error) error {
	if err != nil && store.IsCorrupt(err) {
		s.log.Error("the index is damaged", "err", err)
		s.indexer.Damaged(err)
		return s.indexer.DamagedError()
	}
	return err
}

// RebuildIndex replaces the index with a new one that keeps the watched
// folders and settings, and indexes every file again from the disk in the
// background. It returns the number of folders kept.
func (s *Service) RebuildIndex(ctx context.Context) (int, error) {
	// Not tied to the request: a client that hangs up must not leave the
	// index half replaced.
	return s.indexer.Rebuild(context.WithoutCancel(ctx))
}
