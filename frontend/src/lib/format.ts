// Formatting helpers shared by the screens: numbers, sizes, dates and
// lists through Intl, in the UI's language (intlLocale). Each result is
// data to the pseudo-locale (isolate).

import { intlLocale, isolate } from './i18n.svelte';

// One formatter per locale and options: building one is not cheap.
const formatters = new Map<string, unknown>();
function cached<T>(kind: string, opts: object, make: (locale: string) => T): T {
  const key = `${kind}|${intlLocale()}|${JSON.stringify(opts)}`;
  let f = formatters.get(key) as T | undefined;
  if (!f) formatters.set(key, (f = make(intlLocale())));
  return f;
}

export function formatCount(n: number | null | undefined): string {
  return isolate(cached('n', {}, (l) => new Intl.NumberFormat(l)).format(n ?? 0));
}

/** A number with exactly this many decimals ("0.62", "0,62"). */
export function formatNumber(n: number, decimals: number): string {
  const opts = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return isolate(cached('n', opts, (l) => new Intl.NumberFormat(l, opts)).format(n));
}

/** A list in the UI's language: "a, b and c" (conjunction) or "a, b, c" (unit). */
export function listOf(items: string[], type: 'conjunction' | 'unit' = 'conjunction'): string {
  const opts = { type, style: type === 'unit' ? 'short' : 'long' } as const;
  return isolate(cached('l', opts, (l) => new Intl.ListFormat(l, opts)).format(items));
}

const byteUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'];

/** A size in the UI's language: "512 byte", "1.5 kB", "84 MB" (1024 to a step). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  let i = 0;
  let v = n;
  while (v >= 1024 && i < byteUnits.length - 1) {
    v /= 1024;
    i++;
  }
  const opts = { style: 'unit', unit: byteUnits[i], unitDisplay: 'short', maximumFractionDigits: i > 0 && v < 10 ? 1 : 0 } as const;
  return isolate(cached('b', opts, (l) => new Intl.NumberFormat(l, opts)).format(v));
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

const dateOpts = { year: 'numeric', month: 'short', day: 'numeric' } as const;
const dateTimeOpts = { ...dateOpts, hour: '2-digit', minute: '2-digit' } as const;

export function formatDate(t: string | number | null | undefined): string {
  const d = parseTime(t);
  return d ? isolate(cached('d', dateOpts, (l) => new Intl.DateTimeFormat(l, dateOpts)).format(d)) : '';
}

export function formatDateTime(t: string | number | null | undefined): string {
  const d = parseTime(t);
  return d ? isolate(cached('d', dateTimeOpts, (l) => new Intl.DateTimeFormat(l, dateTimeOpts)).format(d)) : '';
}

/** A time relative to now, "in 3 seconds", in the UI's language. */
export function relativeSeconds(seconds: number): string {
  const opts = { numeric: 'auto' } as const;
  return isolate(cached('r', opts, (l) => new Intl.RelativeTimeFormat(l, opts)).format(Math.round(seconds), 'second'));
}

/** "now", "10 minutes ago", "3 hours ago", "yesterday", "4 days ago", else a date. */
export function relativeTime(t: string | number | null | undefined, now = new Date()): string {
  const d = parseTime(t);
  if (!d) return '';
  const s = (now.getTime() - d.getTime()) / 1000;
  const opts = { numeric: 'auto' } as const;
  const rtf = cached('r', opts, (l) => new Intl.RelativeTimeFormat(l, opts));
  const ago = (n: number, unit: Intl.RelativeTimeFormatUnit) => isolate(rtf.format(-n, unit));
  if (s < -60) {
    const ahead = -s;
    if (ahead < 3600) return isolate(rtf.format(Math.round(ahead / 60), 'minute'));
    return formatDateTime(t);
  }
  if (s < 45) return ago(0, 'second');
  if (s < 3600) return ago(Math.max(1, Math.round(s / 60)), 'minute');
  if (s < 86400) return ago(Math.round(s / 3600), 'hour');
  if (s < 2 * 86400) return ago(1, 'day');
  if (s < 7 * 86400) return ago(Math.floor(s / 86400), 'day');
  return formatDate(t);
}

/** The names of the days of the week, Monday first ("narrow": "M", "long": "Monday"). */
export function weekdayNames(width: 'narrow' | 'short' | 'long'): string[] {
  const opts = { weekday: width } as const;
  const fmt = cached('w', opts, (l) => new Intl.DateTimeFormat(l, opts));
  // 1 January 2024 was a Monday.
  return Array.from({ length: 7 }, (_, i) => isolate(fmt.format(new Date(2024, 0, 1 + i))));
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

/** A language (ISO 639-1 code) named in the UI's language: "de" is "German", "Deutsch" in German. */
export function languageOf(code: string): string {
  let name = code;
  try {
    name = cached('lang', {}, (l) => new Intl.DisplayNames(l, { type: 'language' })).of(code) ?? code;
  } catch {
    // a code Intl does not take stays as it is
  }
  return isolate(name);
}
