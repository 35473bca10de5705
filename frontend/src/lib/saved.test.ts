import { afterEach, describe, expect, it, vi } from 'vitest';
import * as api from './api';
import type { SavedSearch } from './api';
import { emptyParams, type SearchParams } from './search.svelte';
import { loadSaved, matchedText, paramsOf, requestOf, saved } from './saved.svelte';

function savedOf(req: ReturnType<typeof requestOf>, extra: Partial<SavedSearch> = {}): SavedSearch {
  return {
    id: 1, name: 'Invoices', query: req.query ?? '', directory: req.directory ?? null, filters: req.filters ?? null,
    sort: req.sort ?? 'relevance', order: req.order ?? '', mode: 'hybrid', notify: false, created: '', updated: '', ...extra,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('saved searches', () => {
  it('keep the main search as it is and give it back', () => {
    const p: SearchParams = {
      ...emptyParams, query: ' invoice ', extensions: ['pdf'], kinds: ['documents'], languages: ['de'], directory: '/home/u/bills',
      sort: 'modified', order: 'asc', date: 'custom', customAfter: '2026-01-01', customBefore: '2026-03-31',
    };
    const req = requestOf(p, new Date(2026, 10, 29));
    expect(req).toEqual({
      query: 'invoice', directory: '/home/u/bills', sort: 'modified', order: 'asc',
      filters: { extensions: ['pdf'], kinds: ['documents'], language: ['de'], modified_after: '2026-01-01', modified_before: '2026-03-31' },
    });
    expect(req).not.toHaveProperty('limit');
    expect(paramsOf(savedOf(req))).toEqual({ ...p, query: 'invoice' });
  });

  it('read what another client saved, leaving out what the main search cannot hold', () => {
    const ss = savedOf({ query: 'x' }, { filters: { extensions: '.PDF', language: 'FR', min_size: 10, path: '*/x/*' }, sort: 'colour', order: '', directory: null });
    expect(paramsOf(ss)).toEqual({ ...emptyParams, query: 'x', extensions: ['pdf'], kinds: [], languages: ['fr'] });
  });

  it('say how many new files match, in the plural the count wants', () => {
    expect(matchedText({ id: 1, name: 'Invoices', count: 1, files: [] })).toBe('1 new file matches “Invoices”');
    expect(matchedText({ id: 1, name: 'Invoices', count: 3, files: [] })).toBe('3 new files match “Invoices”');
  });

  it('load from the server, and keep why not when it fails', async () => {
    const ss = savedOf({ query: 'invoice' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ saved_searches: [ss], total: 1 }), { status: 200, headers: { 'Content-Type': 'application/json' } })));
    await loadSaved();
    expect(saved.list).toEqual([ss]);
    expect(saved.error).toBe('');
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ status: 'error', error: { code: 'INDEX_DAMAGED', message: 'the index is damaged' } }), { status: 503 })));
    await loadSaved();
    expect(saved.error).toBe('the index is damaged');
  });
});

describe('saved search API', () => {
  it('sends each operation to its route', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(url), init });
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    }));
    await api.saveSearch({ name: 'a', query: 'q', notify: true });
    await api.updateSavedSearch(7, { name: 'b' });
    await api.deleteSavedSearch(7);
    await api.runSavedSearch(7, { limit: 10 });
    expect(calls.map((c) => `${c.init.method} ${c.url} ${c.init.body ?? ''}`)).toEqual([
      'POST /api/saved-searches {"name":"a","query":"q","notify":true}',
      'PUT /api/saved-searches/7 {"name":"b"}',
      'DELETE /api/saved-searches/7 ',
      'POST /api/saved-searches/7/run {"limit":10}',
    ]);
  });

  it('gives a refused name as the server worded it', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ status: 'error', error: { code: 'NAME_TAKEN', field: 'name', message: 'taken' } }), { status: 409 })));
    await expect(api.saveSearch({ name: 'a', query: 'q' })).rejects.toMatchObject({ status: 409, code: 'NAME_TAKEN', field: 'name' });
  });
});
