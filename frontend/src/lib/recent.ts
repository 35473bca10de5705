// Recent searches, kept in this browser only (localStorage), newest first.

export const RECENT_KEY = 'trove.recent';
export const MAX_RECENT = 10;

function read(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

function write(list: string[]): void {
  try {
    if (list.length) localStorage.setItem(RECENT_KEY, JSON.stringify(list));
    else localStorage.removeItem(RECENT_KEY);
  } catch {
    // storage unavailable: nothing is remembered
  }
}

/** The recent searches, newest first. */
export function recentSearches(): string[] {
  return read();
}

/** Remembers a search (moved to the front when already there). */
export function rememberSearch(query: string): string[] {
  const q = query.trim();
  if (!q) return read();
  const list = [q, ...read().filter((x) => x !== q)].slice(0, MAX_RECENT);
  write(list);
  return list;
}

/** Forgets every recent search. */
export function clearRecent(): void {
  write([]);
}
