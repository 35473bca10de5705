// Formatting helpers shared by the screens.

const numberFmt = new Intl.NumberFormat();

export function formatCount(n: number | null | undefined): string {
  return numberFmt.format(n ?? 0);
}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/**
 * Parses the API's times: file times are local wall-clock without a zone
 * ("2026-11-22T09:14:03"), folder times UTC with Z, queue times Unix seconds.
 */
export function parseTime(t: string | number | null | undefined): Date | null {
  if (t === null || t === undefined || t === '') return null;
  if (typeof t === 'number') return new Date(t * 1000);
  const d = new Date(t); // without a zone, ECMAScript reads date-times as local
  return Number.isNaN(d.getTime()) ? null : d;
}

const dateFmt = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatDate(t: string | number | null | undefined): string {
  const d = parseTime(t);
  return d ? dateFmt.format(d) : '';
}

export function formatDateTime(t: string | number | null | undefined): string {
  const d = parseTime(t);
  return d ? dateTimeFmt.format(d) : '';
}

/** "just now", "5 min ago", "3 h ago", "yesterday", else a date. */
export function relativeTime(t: string | number | null | undefined, now = new Date()): string {
  const d = parseTime(t);
  if (!d) return '';
  const s = (now.getTime() - d.getTime()) / 1000;
  if (s < -60) {
    const ahead = -s;
    if (ahead < 3600) return `in ${Math.round(ahead / 60)} min`;
    return formatDateTime(t);
  }
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 2 * 86400) return 'yesterday';
  if (s < 7 * 86400) return `${Math.floor(s / 86400)} days ago`;
  return formatDate(t);
}

/** Seconds until a Unix time, for cooldowns ("3 s"). */
export function secondsUntil(unix: number, now = Date.now()): number {
  return Math.max(0, Math.ceil(unix - now / 1000));
}

/** YYYY-MM-DD in local time. */
export function localDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The folder part of a path ("/a/b/c.txt" -> "/a/b"). */
export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function basename(path: string): string {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/** A path with the home folder written as ~ when it is known. */
export function shortPath(path: string, home = ''): string {
  if (home && (path === home || path.startsWith(home + '/'))) return '~' + path.slice(home.length);
  return path;
}

/**
 * A snippet from the API is HTML-escaped with <mark> tags. As a second line
 * of defence, every "<" that does not open or close a mark is escaped, so
 * only <mark> can ever reach the page as markup.
 */
export function safeSnippet(html: string): string {
  return html.replace(/<(?!\/?mark>)/gi, '&lt;');
}
