-- Files that OCR would read more of than was read (OCR was off, or
-- tesseract missing): turning OCR on queues them again. Files indexed
-- before this migration are marked by what the index can tell: images of
-- the types tesseract reads (40 MiB or less, read without trouble or
-- without tesseract, and not already read by OCR) and PDFs that gave no
-- text at all. Images too small to hold text are read once more and
-- unmarked.
ALTER TABLE files ADD COLUMN ocr_pending INTEGER NOT NULL DEFAULT 0;
UPDATE files SET ocr_pending = 1
WHERE state = 'indexed' AND (
  error = 'PDF without a text layer (scanned pages): turn on OCR to read them'
  OR (mime IN ('image/png', 'image/jpeg', 'image/tiff', 'image/gif', 'image/bmp', 'image/webp')
      AND size <= 41943040
      AND error IN ('', 'text in images not read: OCR is on but tesseract is not installed')
      AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.file_id = files.id AND c.text LIKE '%ocr: tesseract%')));
CREATE INDEX files_ocr_pending ON files(dir_id) WHERE ocr_pending = 1;
