-- Names first. A scan records every new file's name, path, size and dates
-- at once, thousands of files a transaction, in state 'pending': found by
-- name within seconds, its content read later by the content pass, most
-- recently modified first. A names-only folder records its files in state
-- 'named' and never reads their content.
ALTER TABLE watched_directories ADD COLUMN names_only INTEGER NOT NULL DEFAULT 0;
-- How often the folder is rescanned on a schedule; NULL: as its file
-- system needs (network shares and FUSE mounts, whose changes made
-- elsewhere the kernel does not report).
ALTER TABLE watched_directories ADD COLUMN rescan_seconds INTEGER;
-- The content pass takes each folder's pending files newest first.
CREATE INDEX files_pending ON files(dir_id, modified_ns) WHERE state = 'pending';
-- Where the file system holding the folder was mounted when it was
-- watched ('/' for the root file system; NULL for folders watched before
-- this was kept, filled in at their next start). While nothing is mounted
-- there, the folder is offline (a drive unplugged, a share gone): its
-- files stay, and a scan of the empty mount point never removes them.
ALTER TABLE watched_directories ADD COLUMN mount_point TEXT;
