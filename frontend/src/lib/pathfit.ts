// Folders that fit their column: a long path keeps its start and its end
// and loses the middle ("/usr/share/…/base-files"), because the end is what
// tells apart hundreds of files of the same name (copyright, README.Debian).

const ELLIPSIS = '…';

/**
 * The path in at most max characters: whole folders from its end, as much
 * of its start as is left (cut after a separator when one is near), and
 * "…" between. A last folder longer than max keeps its own end.
 */
export function middleEllipsis(path: string, max: number): string {
  if (path.length <= max) return path;
  if (max <= 1) return max === 1 ? ELLIPSIS : '';
  const sep = path.includes('/') ? '/' : '\\';
  // The start keeps at least its first folder ("/usr"), up to a third of the room.
  const first = path.indexOf(sep, 1);
  const minHead = Math.max(1, Math.min(first > 0 ? first : 1, Math.floor(max / 3)));
  let start = path.lastIndexOf(sep);
  if (start <= 0 || path.length - start + 1 > max) return ELLIPSIS + path.slice(path.length - (max - 1));
  // Grow the end by whole folders while the start keeps its room.
  for (;;) {
    const prev = path.lastIndexOf(sep, start - 1);
    if (prev <= 0 || path.length - prev + 1 + minHead > max) break;
    start = prev;
  }
  const tail = path.slice(start);
  let head = path.slice(0, max - 1 - tail.length);
  // Whole folders at the start too, when that costs at most half of it.
  const cut = head.lastIndexOf(sep);
  if (cut > 0 && cut + 1 >= head.length / 2) head = head.slice(0, cut + 1);
  return head + ELLIPSIS + tail;
}

/**
 * The longest middleEllipsis of the path whose width (measure, in the
 * units of width) fits; the path itself when it fits whole.
 */
export function fitPath(path: string, width: number, measure: (s: string) => number): string {
  if (measure(path) <= width) return path;
  let lo = 0;
  let hi = path.length - 1;
  // The widest that fits: measure grows with the characters kept.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(middleEllipsis(path, mid)) <= width) lo = mid;
    else hi = mid - 1;
  }
  return middleEllipsis(path, lo);
}
