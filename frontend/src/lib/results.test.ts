import { describe, it, expect, vi, beforeEach } from 'vitest';
import { buildRequest, SearchController, emptyParams, paramsFromURL, paramsToURL, type SearchParams } from './search.svelte';
import { clearRecent, recentSearches, rememberSearch, MAX_RECENT } from './recent';
import { problemLabel } from './problems';
import type { SearchRequest, SearchResponse } from './api';
import { searchResult as hit } from './fixtures';

const day = new Date(2026, 4, 20);


describe('search requests', () => {
  it('sends sort, order only when not the default, kinds and a date range', () => {
    const p: SearchParams = { ...emptyParams, query: ' zlib ', sort: 'name', order: 'asc', kinds: ['pdf'], date: 'custom', customAfter: '2026-01-01', customBefore: '2026-02-01' };
    expect(buildRequest(p, day, 50, false, 100)).toEqual({
      query: 'zlib',
      limit: 50,
      offset: 100,
      sort: 'name',
      filters: { kinds: ['pdf'], modified_after: '2026-01-01', modified_before: '2026-02-01' },
    });
    expect(buildRequest({ ...p, order: 'desc', kinds: [], date: 'any' }, day)).toEqual({ query: 'zlib', limit: 50, sort: 'name', order: 'desc' });
    expect(buildRequest({ ...emptyParams, query: 'a', sort: 'relevance', order: 'desc' }, day)).toEqual({ query: 'a', limit: 50 });
  });
});

describe('search in the address bar', () => {
  it('round-trips every parameter and writes only what differs from the defaults', () => {
    const p: SearchParams = {
      ...emptyParams,
      query: 'roof & leak',
      sort: 'size',
      order: 'asc',
      kinds: ['documents', 'none'],
      extensions: ['md'],
      languages: ['de', 'fr'],
      date: 'custom',
      customAfter: '2025-01-01',
      customBefore: '2025-12-31',
      directory: '/home/me/Notes',
    };
    const url = paramsToURL(p);
    expect(url.startsWith('?q=roof+%26+leak')).toBe(true);
    expect(paramsFromURL(url)).toEqual(p);
    expect(paramsToURL({ ...emptyParams, query: 'x' })).toBe('?q=x');
    expect(paramsToURL(emptyParams)).toBe('');
  });

  it('ignores values it does not know', () => {
    const p = paramsFromURL('?q=a&sort=bogus&order=up&date=yesterday&kind=Bad!&after=2025-01-01&lang=German&lang=');
    expect(p).toEqual({ ...emptyParams, query: 'a' });
  });
});

describe('recent searches', () => {
  beforeEach(() => clearRecent());

  it('keeps the newest first, once each, at most MAX_RECENT, and clears', () => {
    rememberSearch('a');
    rememberSearch('b');
    rememberSearch(' a ');
    rememberSearch('   ');
    expect(recentSearches()).toEqual(['a', 'b']);
    for (let i = 0; i < 20; i++) rememberSearch(`q${i}`);
    expect(recentSearches()).toHaveLength(MAX_RECENT);
    expect(recentSearches()[0]).toBe('q19');
    clearRecent();
    expect(recentSearches()).toEqual([]);
  });

  it('survives a corrupt store', () => {
    localStorage.setItem('trove.recent', '{not json');
    expect(recentSearches()).toEqual([]);
    expect(rememberSearch('x')).toEqual(['x']);
  });
});

describe('paging', () => {
  it('loads the next page at the end of the list and counts the true total', async () => {
    const reqs: SearchRequest[] = [];
    const search = vi.fn(async (req: SearchRequest): Promise<SearchResponse> => {
      reqs.push(req);
      const from = req.offset ?? 0;
      const ids = Array.from({ length: Math.min(req.limit ?? 50, 120 - from) }, (_, i) => from + i + 1);
      return { query: req.query, total: 123, total_groups: 120, results: ids.map((id) => hit(id)), did_you_mean: { query: 'license', corrections: [] } };
    });
    const c = new SearchController({ search, debounceMs: 0, limit: 50 });
    c.set({ query: 'licnese' });
    await vi.waitFor(() => expect(c.state.phase).toBe('done'));
    expect(c.state).toMatchObject({ total: 123, totalGroups: 120, didYouMean: 'license' });
    expect(c.hasMore()).toBe(true);
    c.move(47); // near the end: the next page comes
    await vi.waitFor(() => expect(c.state.results).toHaveLength(100));
    expect(reqs[1].offset).toBe(50);
    c.loadMore();
    await vi.waitFor(() => expect(c.state.results).toHaveLength(120));
    expect(c.hasMore()).toBe(false);
    c.loadMore();
    expect(search).toHaveBeenCalledTimes(3);
    expect(new Set(c.state.results.map((r) => r.file.id)).size).toBe(120);
  });

  it('stops paging when a page brings nothing new, whatever the count says', async () => {
    const search = vi.fn(async (req: SearchRequest): Promise<SearchResponse> => {
      return { query: req.query, total: 80, total_groups: 80, results: Array.from({ length: 50 }, (_, i) => hit(i + 1)) };
    });
    const c = new SearchController({ search, debounceMs: 0 });
    c.set({ query: 'a' });
    await vi.waitFor(() => expect(c.state.phase).toBe('done'));
    expect(c.hasMore()).toBe(true);
    c.loadMore();
    await vi.waitFor(() => expect(c.state.loadingMore).toBe(false));
    expect(c.state.results).toHaveLength(50);
    expect(c.hasMore()).toBe(false);
    expect(search).toHaveBeenCalledTimes(2);
  });

  it('drops a page that arrives after the search changed', async () => {
    let release: (r: SearchResponse) => void = () => {};
    const search = vi.fn(async (req: SearchRequest): Promise<SearchResponse> => {
      if (req.offset) return new Promise((r) => (release = r));
      return { query: req.query, total: 60, results: Array.from({ length: 50 }, (_, i) => hit(i + 1)) };
    });
    const c = new SearchController({ search, debounceMs: 0 });
    c.set({ query: 'a' });
    await vi.waitFor(() => expect(c.state.phase).toBe('done'));
    c.loadMore();
    c.set({ query: 'b' });
    await vi.waitFor(() => expect(c.state.shownQuery).toBe('b'));
    release({ query: 'a', total: 60, results: [hit(999)] });
    await Promise.resolve();
    expect(c.state.results.some((r) => r.file.id === 999)).toBe(false);
  });
});

describe('folder problems', () => {
  it('labels a file whose text was cut as such, not as name only', () => {
    expect(problemLabel({ status: 'indexed', error: 'text truncated at 10 MB' })).toBe('Text cut');
    expect(problemLabel({ status: 'indexed', error: 'larger than 100 MB: indexed by name only' })).toBe('Name only');
    expect(problemLabel({ status: 'failed', error: 'not a regular file' })).toBe('Failed');
  });
});
