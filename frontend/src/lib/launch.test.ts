import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRoute, quickScope } from './launch.svelte';
import { mainSearch } from './shared.svelte';
import { router } from './router.svelte';

afterEach(() => vi.unstubAllGlobals());

describe('routes the desktop app opens', () => {
  it('scopes quick search to the folder a file manager names, and unscopes it', () => {
    openRoute('/quick?dir=' + encodeURIComponent('/home/me/my notes?'));
    expect(router.route).toBe('/quick');
    expect(quickScope.dir).toBe('/home/me/my notes?');
    openRoute('/quick');
    expect(router.route).toBe('/quick');
    expect(quickScope.dir).toBe('');
  });

  it("shows a desktop search's query in the main window, searching at once", () => {
    const asked: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        asked.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify({ results: [], total: 0, query: '' }), { headers: { 'Content-Type': 'application/json' } });
      }),
    );
    mainSearch.replace({ ...mainSearch.state.params, directory: '/elsewhere', kinds: ['pdf'] });
    openRoute('/?q=roof+leak');
    expect(router.route).toBe('/');
    // The desktop's query alone: no filter of an earlier search stays.
    expect(mainSearch.state.params).toMatchObject({ query: 'roof leak', directory: '', kinds: [] });
    expect(asked.at(-1)).toEqual({ query: 'roof leak', limit: 50, explain: true });
  });

  it("runs a saved search the tray names, with its filters", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const body = url.startsWith('/api/saved-searches/')
          ? { id: 3, name: 'Bills', query: 'invoice', directory: null, filters: { extensions: ['pdf'] }, sort: 'modified', order: '', mode: 'hybrid', notify: false, created: '', updated: '' }
          : { results: [], total: 0, query: '' };
        return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
      }),
    );
    openRoute('/settings');
    openRoute('/?saved=3');
    await vi.waitFor(() => expect(mainSearch.state.params).toMatchObject({ query: 'invoice', extensions: ['pdf'], sort: 'modified' }));
    expect(urls[0]).toBe('/api/saved-searches/3');
    expect(router.route).toBe('/');
  });

  it('opens a route without parameters as it is', () => {
    openRoute('/settings');
    expect(router.route).toBe('/settings');
  });
});
