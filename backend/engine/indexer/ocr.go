package indexer

import (
	"context"

	"trove/backend/engine/queue"
)

// Files that OCR would read more of than was read (it was off, or
// tesseract missing) are recorded as pending OCR. They are queued again,
// unchanged as they are, when OCR starts to run: extraction.ocr turned on,
// Trove started with it on, or tesseract installed while it is on (noticed
// at the next poll). The pipeline then reads them with OCR, as it redoes
// files made by another enricher or embedder.

// ocrWaits is logged when OCR does not run (tests wait for it).
const ocrWaits = "OCR does not run: files OCR would read more of wait for it"

// ReadPendingOCR queues, in the background, the files OCR would read more
// of, if OCR runs.
func (ix *Indexer) ReadPendingOCR() {
	select {
	case ix.ocrWanted <- struct{}{}:
	default: // one is already asked for
	}
}

// queuePendingOCR queues the files pending OCR when OCR runs, and
// remembers whether it did for the polls.
func (ix *Indexer) queuePendingOCR(ctx context.Context) {
	ix.ocrRan = ix.Pipeline.OCRRuns(ctx)
	if !ix.ocrRan {
		ix.Log.Debug(ocrWaits)
		return
	}
	recs, err := ix.Store.PendingOCR(ctx)
	if err != nil {
		if ctx.Err() == nil && !ix.keepOnStorageError(err) {
			ix.Log.Warn("cannot list the files waiting for OCR", "err", err)
		}
		return
	}
	events := make([]queue.Event, 0, len(recs))
	for _, r := range recs {
		if _, watched := ix.Folder(r.DirID); watched {
			events = append(events, queue.Event{Path: r.Path, Action: queue.ActionIndex, DirID: r.DirID})
		}
	}
	if len(events) > 0 {
		ix.Log.Info("reading files again with OCR", "files", len(events))
		ix.queue.EnqueueAll(events)
	}
}

// pollOCR queues the files pending OCR when OCR has started to run since
// the last look (tesseract installed while extraction.ocr is on).
func (ix *Indexer) pollOCR(ctx context.Context) {
	if !ix.ocrRan && ix.Settings().Extraction.OCR {
		ix.queuePendingOCR(ctx)
	}
}
