import { describe, expect, it, vi } from 'vitest';
import { get } from 'svelte/store';
import * as api from './api';
import { openRoute, quickScope } from './launch';
import { mainSearch } from './stores';
import { route } from './router';
import { activityOf } from './live';

describe('routes the desktop app opens', () => {
  it('scopes quick search to the folder a file manager names, and unscopes it', () => {
    openRoute('/quick?dir=' + encodeURIComponent('/home/me/my notes'));
    expect(get(route)).toBe('/quick');
    expect(get(quickScope)).toBe('/home/me/my notes');
    openRoute('/quick');
    expect(get(quickScope)).toBe('');
  });

  it("shows a desktop search's query in the main window", () => {
    vi.spyOn(api, 'search').mockResolvedValue({ results: [], total: 0, query: 'roof leak' } as never);
    openRoute('/?q=roof+leak');
    expect(get(route)).toBe('/');
    expect(get(mainSearch).params.query).toBe('roof leak');
  });
});

describe('activity', () => {
  it('shows what an agent asked and what it got', () => {
    const base = { id: 7, time: '2026-01-01T00:00:00Z', type: 'mcp.call' as const };
    const ok = activityOf({ ...base, data: { tool: 'search', arguments: '{"query":"roof"}', results: 3, files: ['/a/roof.md', '/b/leak.txt', '/c/tiles.pdf'], bytes: 2048, error: '' } });
    expect(ok?.title).toBe('search {"query":"roof"}');
    expect(ok?.detail).toBe('3 files (roof.md, leak.txt, tiles.pdf), 2.0 KB sent');
    const refused = activityOf({ ...base, data: { tool: 'open', arguments: '{"id":1}', results: 0, files: [], bytes: 0, error: 'unknown tool "open"' } });
    expect(refused?.detail).toBe('refused: unknown tool "open"');
  });
});
