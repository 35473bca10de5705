-- Which file on disk a record was made from: device and inode as the file
-- was indexed. Actions that hand an indexed file to someone (its image,
-- opening it) check that the path still names that file, and not another
-- one swapped in under its name since. NULL for records made before this
-- was kept: those compare size and time instead.
ALTER TABLE files ADD COLUMN device INTEGER;
ALTER TABLE files ADD COLUMN inode INTEGER;
