import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import { buildRequest, SearchController, modifiedAfter, hasFilters, emptyParams, matchedWords } from './search.svelte';
import { ApiError, type SearchRequest, type SearchResponse } from './api';
import { searchResult as result } from './fixtures';

function answer(query: string, ids: number[]): SearchResponse {
  return { query, total: ids.length, results: ids.map((i) => result(i, `${query} ${i}`)) };
}

/** A search function whose answers the test releases by hand. */
function deferredSearch() {
  const pending: { req: SearchRequest; resolve: (r: SearchResponse) => void; reject: (e: unknown) => void; signal?: AbortSignal }[] = [];
  const fn = vi.fn((req: SearchRequest, opt: { signal?: AbortSignal }) => {
    return new Promise<SearchResponse>((resolve, reject) => pending.push({ req, resolve, reject, signal: opt.signal }));
  });
  return { fn, pending };
}

const now = () => new Date(2026, 10, 22, 15, 30); // 22 Nov 2026, local

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('buildRequest', () => {
  it('sends the trimmed query, the limit, and only the filters set', () => {
    expect(buildRequest({ ...emptyParams, query: '  roof leak ' }, now())).toEqual({ query: 'roof leak', limit: 50 });
    expect(
      buildRequest({ ...emptyParams, query: 'x', extensions: ['pdf', 'md'], directory: '/home/me/notes', date: 'week' }, now(), 10),
    ).toEqual({
      query: 'x',
      limit: 10,
      directory: '/home/me/notes',
      filters: { extensions: ['pdf', 'md'], modified_after: '2026-11-16' },
    });
    expect(buildRequest({ ...emptyParams, query: 'x', languages: ['de'] }, now())).toEqual({
      query: 'x',
      limit: 50,
      filters: { language: ['de'] },
    });
  });

  it('turns date ranges into local days', () => {
    const p = (date: any, customAfter = '') => modifiedAfter({ date, customAfter }, now());
    expect(p('any')).toBe('');
    expect(p('today')).toBe('2026-11-22');
    expect(p('week')).toBe('2026-11-16');
    expect(p('month')).toBe('2026-10-24');
    expect(p('year')).toBe('2025-11-23');
    expect(p('custom', '2024-02-01')).toBe('2024-02-01');
    expect(p('custom', 'garbage')).toBe('');
  });

  it('matches when some file holds a word: the one rule of every client', () => {
    expect(matchedWords({ ...answer('q', [1]), keyword_matches: 0 })).toBe(false);
    expect(matchedWords({ ...answer('q', [1]), keyword_matches: 2 })).toBe(true);
    expect(matchedWords({ ...answer('q', [1]), keyword_matches: null })).toBe(true);
    expect(matchedWords(answer('q', []))).toBe(false);
  });

  it('knows when filters are on', () => {
    expect(hasFilters(emptyParams)).toBe(false);
    expect(hasFilters({ ...emptyParams, extensions: ['md'] })).toBe(true);
    expect(hasFilters({ ...emptyParams, directory: '/a' })).toBe(true);
    expect(hasFilters({ ...emptyParams, languages: ['ru'] })).toBe(true);
    expect(hasFilters({ ...emptyParams, date: 'custom', customAfter: '' })).toBe(false);
  });
});

describe('search as you type', () => {
  it('waits for a pause in typing (150 ms) and sends one request', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'r' });
    await vi.advanceTimersByTimeAsync(100);
    s.set({ query: 'ro' });
    await vi.advanceTimersByTimeAsync(100);
    s.set({ query: 'roof' });
    expect(s.state.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(149);
    expect(fn).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn.mock.calls[0][0].query).toBe('roof');
    pending[0].resolve(answer('roof', [1, 2]));
    await vi.waitFor(() => expect(s.state.phase).toBe('done'));
    const st = s.state;
    expect(st.results.map((r) => r.file.id)).toEqual([1, 2]);
    expect(st.shownQuery).toBe('roof');
    expect(st.pending).toBe(false);
  });

  it('keeps the notice of the answer shown, and only of that one', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'garden' });
    await vi.advanceTimersByTimeAsync(150);
    const notice = 'Semantic search is unavailable (ollama at http://127.0.0.1:11434 is not reachable); these results match your words only.';
    pending[0].resolve({ ...answer('garden', [3]), notice });
    await vi.waitFor(() => expect(s.state.phase).toBe('done'));
    expect(s.state.notice).toBe(notice);
    s.set({ query: 'garden bed' });
    await vi.advanceTimersByTimeAsync(150);
    pending[1].resolve(answer('garden bed', [3]));
    await vi.waitFor(() => expect(s.state.shownQuery).toBe('garden bed'));
    expect(s.state.notice).toBe('');
    s.clear();
    expect(s.state.notice).toBe('');
  });

  it('takes whether any file holds the words from keyword_matches, not from the results', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    const ask = async (query: string, res: SearchResponse) => {
      s.set({ query });
      await vi.advanceTimersByTimeAsync(150);
      pending[pending.length - 1].resolve(res);
      await vi.waitFor(() => expect(s.state.shownQuery).toBe(query));
      return s.state;
    };
    // Found by meaning alone: results, yet no match.
    let st = await ask('vegetables', { ...answer('vegetables', [3]), keyword_matches: 0 });
    expect(st.results.length).toBe(1);
    expect(st.matched).toBe(false);
    st = await ask('tomatoes', { ...answer('tomatoes', [3, 4]), keyword_matches: 1 });
    expect(st.matched).toBe(true);
    // Without the count (a semantic search), results are matches.
    st = await ask('garden', { ...answer('garden', [3]), keyword_matches: null });
    expect(st.matched).toBe(true);
    st = await ask('nothing', answer('nothing', []));
    expect(st.matched).toBe(false);
  });

  it('ignores an answer that arrives after a newer request', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'roof' });
    await vi.advanceTimersByTimeAsync(150);
    s.set({ query: 'roof leak' });
    await vi.advanceTimersByTimeAsync(150);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(pending[0].signal?.aborted).toBe(true);
    // The newer answer first, then the stale one.
    pending[1].resolve(answer('roof leak', [7]));
    await vi.waitFor(() => expect(s.state.shownQuery).toBe('roof leak'));
    pending[0].resolve(answer('roof', [1, 2, 3]));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state.results.map((r) => r.file.id)).toEqual([7]);
    expect(s.state.shownQuery).toBe('roof leak');
  });

  it('ignores a stale failure too', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'a1' });
    await vi.advanceTimersByTimeAsync(150);
    s.set({ query: 'a2' });
    await vi.advanceTimersByTimeAsync(150);
    pending[1].resolve(answer('a2', [2]));
    pending[0].reject(new ApiError({ status: 400, code: 'INVALID_QUERY', message: 'bad' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state.phase).toBe('done');
    expect(s.state.error).toBeNull();
  });

  it('shows the error of the latest request', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'after:2024-13' });
    await vi.advanceTimersByTimeAsync(150);
    pending[0].reject(new ApiError({ status: 400, code: 'INVALID_QUERY', message: 'after: bad date' }));
    await vi.waitFor(() => expect(s.state.phase).toBe('error'));
    expect(s.state.error?.code).toBe('INVALID_QUERY');
  });

  it('clears at once when the box is emptied, dropping the answer on its way', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'roof' });
    await vi.advanceTimersByTimeAsync(150);
    s.set({ query: '   ' });
    expect(s.state.phase).toBe('idle');
    pending[0].resolve(answer('roof', [1]));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state.results).toEqual([]);
    expect(s.state.phase).toBe('idle');
    await vi.advanceTimersByTimeAsync(500);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('searches at once when a filter chip changes', async () => {
    const { fn } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'plan' });
    await vi.advanceTimersByTimeAsync(150);
    s.set({ extensions: ['md'] });
    await vi.advanceTimersByTimeAsync(0);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn.mock.calls[1][0].filters).toEqual({ extensions: ['md'] });
    s.set({ extensions: ['md'] }); // no change, no request
    await vi.advanceTimersByTimeAsync(200);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('moves the selection within the results, and a refresh keeps it on its file', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.set({ query: 'x' });
    await vi.advanceTimersByTimeAsync(150);
    pending[0].resolve(answer('x', [1, 2, 3]));
    await vi.waitFor(() => expect(s.state.phase).toBe('done'));
    s.move(1);
    s.move(5);
    expect(s.state.selected).toBe(2);
    s.move(-10);
    expect(s.state.selected).toBe(0);
    s.select(1);
    expect(s.selected()?.file.id).toBe(2);
    s.refresh();
    await vi.advanceTimersByTimeAsync(0);
    pending[1].resolve(answer('x', [9, 2, 1]));
    await vi.waitFor(() => expect(s.state.results[0].file.id).toBe(9));
    expect(s.selected()?.file.id).toBe(2);
  });

  it('does nothing on refresh while idle, and destroy drops what is pending', async () => {
    const { fn, pending } = deferredSearch();
    const s = new SearchController({ search: fn, now });
    s.refresh();
    expect(fn).not.toHaveBeenCalled();
    s.set({ query: 'x' });
    await vi.advanceTimersByTimeAsync(150);
    s.destroy();
    pending[0].resolve(answer('x', [1]));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state.results).toEqual([]);
  });
});
