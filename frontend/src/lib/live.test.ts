import { describe, it, expect, vi, afterEach } from 'vitest';
import {
  foldersReducer,
  queueReducer,
  mergeFolders,
  activityReducer,
  agentFiles,
  Live,
  emptyQueue,
} from './live.svelte';
import type { Folder, TroveEvent, EventType } from './api';

const ev = (type: EventType, data: any, id = 1): TroveEvent => ({ id, type, time: '2026-11-22T08:14:03Z', data });

const folder = (id: number, over: Partial<Folder> = {}): Folder => ({
  id,
  path: `/f${id}`,
  file_count: 10,
  indexed_count: 0,
  failed_count: 0,
  status: 'indexing',
  status_message: '',
  added_at: '2026-11-22T08:00:00Z',
  last_scan: null,
  ...over,
});

afterEach(() => vi.useRealTimers());

describe('foldersReducer', () => {
  it('applies folder.status, keeping the fields events do not carry', () => {
    const next = foldersReducer(
      [folder(1)],
      ev('folder.status', { id: 1, path: '/f1', status: 'watching', message: '', file_count: 10, indexed_count: 9, failed_count: 1 }),
    );
    expect(next[0]).toMatchObject({ status: 'watching', indexed_count: 9, failed_count: 1, added_at: '2026-11-22T08:00:00Z', pending: 0 });
  });

  it('adds a folder it has not seen', () => {
    const next = foldersReducer(
      [folder(1)],
      ev('folder.status', { id: 2, path: '/new', status: 'indexing', message: '', file_count: 3, indexed_count: 0, failed_count: 0 }),
    );
    expect(next.map((f) => f.id)).toEqual([1, 2]);
    expect(next[1]).toMatchObject({ path: '/new', status: 'indexing', file_count: 3 });
  });

  it('shows the error message of a folder in error', () => {
    const next = foldersReducer(
      [folder(1)],
      ev('folder.status', { id: 1, status: 'error', message: 'folder is gone', file_count: 0, indexed_count: 0, failed_count: 0 }),
    );
    expect(next[0]).toMatchObject({ status: 'error', status_message: 'folder is gone', path: '/f1' });
  });

  it('applies scan.progress with the pending count', () => {
    const next = foldersReducer(
      [folder(1)],
      ev('scan.progress', { id: 1, path: '/f1', status: 'indexing', file_count: 10, indexed_count: 4, failed_count: 0, pending: 2, pending_count: 4 }),
    );
    expect(next[0]).toMatchObject({ indexed_count: 4, pending: 2, pending_count: 4, status: 'indexing' });
  });

  it('removes a folder on folder.removed and ignores other kinds', () => {
    const list = [folder(1), folder(2)];
    expect(foldersReducer(list, ev('folder.removed', { id: 1, absorbed_by: 2 })).map((f) => f.id)).toEqual([2]);
    expect(foldersReducer(list, ev('folder.removed', { id: 5 }))).toBe(list);
    expect(foldersReducer(list, ev('file.indexed', { id: 1, path: '/f1/a' }))).toBe(list);
  });
});

describe('embedding notices', () => {
  it('puts embedding.status on every folder, leaving their status alone', () => {
    const failing = { state: 'failing', model: 'ollama:nomic-embed-text', message: 'not reachable', since: '2026-11-22T08:14:03Z', failed_requests: 3 };
    const next = foldersReducer([folder(1, { status: 'watching' }), folder(2)], ev('embedding.status', failing));
    expect(next.map((f) => f.embedding)).toEqual([failing, failing]);
    expect(next.map((f) => f.status)).toEqual(['watching', 'indexing']);
  });
});

describe('queueReducer', () => {
  it('takes the status of queue.status events only', () => {
    const q = { ...emptyQueue, paused: true, paused_by_scheduler: true, scheduler_reason: 'on battery power', total: 3 };
    expect(queueReducer(null, ev('queue.status', q))).toEqual(q);
    expect(queueReducer(q, ev('file.indexed', { id: 1 }))).toBe(q);
  });
});

describe('mergeFolders', () => {
  it('keeps the live state of folders changed during the fetch', () => {
    const live = [folder(1, { status: 'watching', indexed_count: 10 }), folder(3, { path: '/added' })];
    const fetched = [folder(1, { status: 'indexing', indexed_count: 2, last_scan: '2026-11-22T09:00:00Z' }), folder(2)];
    const out = mergeFolders(live, fetched, new Set([1, 3]));
    expect(out.map((f) => f.id)).toEqual([1, 2, 3]);
    expect(out[0]).toMatchObject({ status: 'watching', indexed_count: 10, last_scan: '2026-11-22T09:00:00Z' });
  });

  it('takes the fetched copy otherwise, and drops folders removed meanwhile', () => {
    const out = mergeFolders([folder(1, { status: 'watching' })], [folder(1, { status: 'error' }), folder(2)], new Set([2]));
    expect(out.map((f) => [f.id, f.status])).toEqual([[1, 'error']]);
  });
});

describe('activity', () => {
  it('keeps the newest file events first, up to a maximum', () => {
    let list = activityReducer([], ev('file.indexed', { id: 1, path: '/a', warning: '' }, 1));
    list = activityReducer(list, ev('file.failed', { id: 2, path: '/b', error: 'corrupt' }, 2));
    list = activityReducer(list, ev('queue.status', emptyQueue, 3));
    expect(list.map((a) => [a.type, a.path, a.detail])).toEqual([
      ['file.failed', '/b', 'corrupt'],
      ['file.indexed', '/a', ''],
    ]);
    for (let i = 0; i < 10; i++) list = activityReducer(list, ev('file.removed', { id: i, path: `/r${i}` }, 10 + i), 5);
    expect(list).toHaveLength(5);
  });
});

describe("agents' calls", () => {
  const call = (data: any) => activityReducer([], ev('mcp.call', data, 7))[0];

  it('shows what an agent asked and the first names of what it got', () => {
    const a = call({ tool: 'search', arguments: '{"query":"roof"}', results: 5, files: ['/a/roof.md', '/b/leak.txt', '/c/tiles.pdf', '/d/x.md'], bytes: 2048, error: '' });
    expect(a).toMatchObject({ type: 'mcp.call', path: '', detail: '' });
    expect(a.agent).toMatchObject({ tool: 'search', arguments: '{"query":"roof"}', results: 5, bytes: 2048, error: '' });
    expect(agentFiles(a.agent!)).toEqual({ names: ['roof.md', 'leak.txt', 'tiles.pdf'], more: 2 });
  });

  it('keeps a refusal, and a call that named no file', () => {
    const a = call({ tool: 'open', arguments: '{"id":1}', results: 0, files: null, bytes: 0, error: 'unknown tool "open"' });
    expect(a.agent?.error).toBe('unknown tool "open"');
    expect(agentFiles(a.agent!)).toEqual({ names: [], more: 0 });
  });
});

describe('the live store', () => {
  function setup(foldersAnswer: () => Promise<any>) {
    let push!: (e: TroveEvent) => void;
    let setState!: (s: any) => void;
    const deps = {
      subscribe: vi.fn((onEvent: (e: TroveEvent) => void, onState: (s: any) => void) => {
        push = onEvent;
        setState = onState;
        return vi.fn();
      }),
      folders: vi.fn(foldersAnswer),
      stats: vi.fn(async () => ({ total_files: 1, total_size: 1, file_types: {}, last_indexed: null, failed_files: 0 })),
      queueStatus: vi.fn(async () => ({ ...emptyQueue, total: 4 })),
      statsThrottleMs: 1000,
    };
    const store = new Live(deps as any);
    return { store, deps, push: (e: TroveEvent) => push(e), setState: (s: any) => setState(s) };
  }

  it('does not let an older folder list overwrite a newer event', async () => {
    let answer!: (v: any) => void;
    const { store, push } = setup(() => new Promise((r) => (answer = r)));
    store.start();
    push(ev('folder.status', { id: 1, path: '/f1', status: 'watching', message: '', file_count: 2, indexed_count: 2, failed_count: 0 }));
    answer({ total_directories: 1, directories: [folder(1, { status: 'indexing', file_count: 2 })] });
    await vi.waitFor(() => expect(store.foldersLoaded).toBe(true));
    expect(store.folders[0]).toMatchObject({ status: 'watching', indexed_count: 2, added_at: '2026-11-22T08:00:00Z' });
  });

  it('fetches the list again once folder events pause, and its counts win', async () => {
    vi.useFakeTimers();
    let answer = { total_directories: 0, directories: [] as Folder[] };
    const { store, deps, push } = setup(async () => answer);
    store.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(deps.folders).toHaveBeenCalledTimes(1);
    // Two events of one folder, the newer first (as concurrent workers may send them).
    push(ev('folder.status', { id: 1, path: '/f1', status: 'watching', message: '', file_count: 11, indexed_count: 10, failed_count: 1 }, 9));
    await vi.advanceTimersByTimeAsync(100);
    push(ev('scan.progress', { id: 1, path: '/f1', status: 'watching', file_count: 11, indexed_count: 10, failed_count: 0, pending: 0 }, 8));
    expect(store.folders[0].failed_count).toBe(0);
    answer = { total_directories: 1, directories: [folder(1, { status: 'watching', file_count: 11, indexed_count: 10, failed_count: 1 })] };
    await vi.advanceTimersByTimeAsync(399);
    expect(deps.folders).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.folders).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.folders[0]).toMatchObject({ failed_count: 1, indexed_count: 10, status: 'watching' });
    store.stop();
  });

  it('follows the queue, the connection and the stats, throttled', async () => {
    vi.useFakeTimers();
    const { store, deps, push, setState } = setup(async () => ({ total_directories: 0, directories: [] }));
    store.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(deps.stats).toHaveBeenCalledTimes(1);
    setState('open');
    expect(store.connection).toBe('open');
    await vi.advanceTimersByTimeAsync(0);
    expect(deps.stats).toHaveBeenCalledTimes(2); // caught up on connecting
    expect(deps.folders).toHaveBeenCalledTimes(2);
    push(ev('queue.status', { ...emptyQueue, paused: true, paused_manually: true, total: 2 }));
    expect(store.queue).toMatchObject({ paused: true, total: 2 });
    for (let i = 0; i < 20; i++) push(ev('file.indexed', { id: i, path: `/x${i}` }, i));
    await vi.advanceTimersByTimeAsync(0);
    // the first event refreshes at once; the rest wait for the throttle
    expect(deps.stats).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1100);
    expect(deps.stats).toHaveBeenCalledTimes(4);
    store.stop();
  });

  it('refetches everything on resync and passes events to listeners', async () => {
    const { store, deps, push } = setup(async () => ({ total_directories: 0, directories: [] }));
    store.start();
    const seen: string[] = [];
    const off = store.onEvent((e) => seen.push(e.type));
    push(ev('settings.changed', {}));
    push(ev('resync', {}));
    off();
    push(ev('filters.changed', { version: 2, removed_count: 0 }));
    expect(seen).toEqual(['settings.changed', 'resync']);
    await vi.waitFor(() => expect(deps.folders).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(store.queue?.total).toBe(4));
  });
});
