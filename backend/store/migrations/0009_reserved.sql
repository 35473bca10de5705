-- Reserved: number 9 belongs to a change made in parallel with 0010;
-- this empty placeholder is removed when that migration is merged.
SELECT 1;
