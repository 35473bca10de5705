import { describe, it, expect } from 'vitest';
import { safeSnippet, parseTime, relativeTime, formatBytes, dirname, basename, localDay, secondsUntil } from './format';
import { normalize } from './router.svelte';

describe('snippets', () => {
  it('keeps <mark> and escapes any other tag', () => {
    expect(safeSnippet('The <mark>roof</mark> &amp; more')).toBe('The <mark>roof</mark> &amp; more');
    expect(safeSnippet('<img src=x onerror=alert(1)><mark>a</mark>')).toBe('&lt;img src=x onerror=alert(1)><mark>a</mark>');
    expect(safeSnippet('<mark onclick="x">a</mark>')).toBe('&lt;mark onclick="x">a</mark>');
    expect(safeSnippet('<script>x</script>')).toBe('&lt;script>x&lt;/script>');
  });
});

describe('times', () => {
  it('reads local file times, UTC folder times and Unix queue times', () => {
    expect(parseTime('2026-11-22T09:14:03')?.getHours()).toBe(9);
    expect(parseTime('2026-11-22T08:14:03Z')?.toISOString()).toBe('2026-11-22T08:14:03.000Z');
    expect(parseTime(1763799243.5)?.getTime()).toBe(1763799243500);
    expect(parseTime('')).toBeNull();
    expect(parseTime('nope')).toBeNull();
  });

  it('says how long ago', () => {
    const now = new Date(2026, 10, 22, 12, 0, 0);
    expect(relativeTime('2026-11-22T11:59:50', now)).toBe('now');
    expect(relativeTime('2026-11-22T11:50:00', now)).toBe('10 minutes ago');
    expect(relativeTime('2026-11-22T09:00:00', now)).toBe('3 hours ago');
    expect(relativeTime('2026-11-21T09:00:00', now)).toBe('yesterday');
    expect(relativeTime('2026-11-18T12:00:00', now)).toBe('4 days ago');
    expect(relativeTime(null, now)).toBe('');
    expect(localDay(now)).toBe('2026-11-22');
    expect(secondsUntil(100.2, 98_000)).toBe(3);
    expect(secondsUntil(1, 98_000)).toBe(0);
  });
});

describe('small formatters', () => {
  it('formats sizes and paths', () => {
    expect(formatBytes(512)).toBe('512 byte');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(88012345)).toBe('84 MB');
    expect(dirname('/a/b/c.txt')).toBe('/a/b');
    expect(dirname('/c.txt')).toBe('/');
    expect(basename('/a/b/')).toBe('b');
  });

  it('normalises routes', () => {
    expect(normalize('/quick')).toBe('/quick');
    expect(normalize('#/settings')).toBe('/settings');
    expect(normalize('/folders/')).toBe('/folders');
    expect(normalize('/nope')).toBe('/');
    expect(normalize('')).toBe('/');
  });
});
