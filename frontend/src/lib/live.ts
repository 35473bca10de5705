// Live state: pure reducers that fold events into the folder list and the
// queue status, and the app-wide store that feeds them from api.subscribe.

import { writable, get, type Readable } from 'svelte/store';
import * as api from './api';
import type { ConnectionState, Folder, FolderStatus, QueueStatus, Stats, TroveEvent } from './api';
import { formatBytes } from './format';

// ---------------------------------------------------------------------------
// Reducers

/** Folds one event into the folder list (a new array when it changes). */
export function foldersReducer(folders: Folder[], ev: TroveEvent): Folder[] {
  const d = ev.data ?? {};
  switch (ev.type) {
    case 'folder.status':
    case 'scan.progress': {
      if (typeof d.id !== 'number') return folders;
      const patch: Partial<Folder> = {
        id: d.id,
        status: d.status as FolderStatus,
        file_count: d.file_count,
        indexed_count: d.indexed_count,
        failed_count: d.failed_count,
        problem_count: d.problem_count,
      };
      if (typeof d.path === 'string') patch.path = d.path;
      if (ev.type === 'folder.status') {
        patch.status_message = d.message ?? '';
        // A folder that is not indexing has nothing pending.
        if (d.status !== 'indexing') patch.pending = 0;
      } else if (typeof d.pending === 'number') {
        patch.pending = d.pending;
      }
      for (const k of Object.keys(patch) as (keyof Folder)[]) if (patch[k] === undefined) delete patch[k];
      const i = folders.findIndex((f) => f.id === d.id);
      if (i < 0) {
        const added: Folder = {
          path: '',
          file_count: 0,
          indexed_count: 0,
          failed_count: 0,
          status: 'indexing',
          status_message: '',
          ...patch,
        } as Folder;
        return [...folders, added];
      }
      const next = folders.slice();
      next[i] = { ...folders[i], ...patch };
      return next;
    }
    case 'folder.removed':
      return folders.some((f) => f.id === d.id) ? folders.filter((f) => f.id !== d.id) : folders;
    case 'embedding.status':
      // One provider serves every folder.
      return folders.map((f) => ({ ...f, embedding: ev.data }));
    default:
      return folders;
  }
}

/** The folder id an event changes, if any. */
export function folderIdOf(ev: TroveEvent): number | undefined {
  if (ev.type === 'folder.status' || ev.type === 'scan.progress' || ev.type === 'folder.removed') {
    return typeof ev.data?.id === 'number' ? ev.data.id : undefined;
  }
  return undefined;
}

/**
 * Merges a fetched folder list into the live one. Folders changed by events
 * since the fetch started (changed) keep their live state, since the fetched
 * copy may be older; the rest take the fetched copy.
 */
export function mergeFolders(live: Folder[], fetched: Folder[], changed: Set<number>): Folder[] {
  const liveById = new Map(live.map((f) => [f.id, f]));
  const out: Folder[] = [];
  for (const f of fetched) {
    const l = liveById.get(f.id);
    if (l && changed.has(f.id)) out.push({ ...f, ...pickLive(l) });
    else if (!l && changed.has(f.id)) continue; // removed by an event meanwhile
    else out.push({ ...f, pending: l?.pending });
  }
  for (const l of live) {
    if (changed.has(l.id) && !fetched.some((f) => f.id === l.id)) out.push(l); // added meanwhile
  }
  return out;
}

function pickLive(f: Folder): Partial<Folder> {
  return {
    status: f.status,
    status_message: f.status_message,
    file_count: f.file_count,
    indexed_count: f.indexed_count,
    failed_count: f.failed_count,
    problem_count: f.problem_count,
    pending: f.pending,
  };
}

/** Folds one event into the queue status. */
export function queueReducer(q: QueueStatus | null, ev: TroveEvent): QueueStatus | null {
  if (ev.type !== 'queue.status' || !ev.data || typeof ev.data !== 'object') return q;
  return { ...(q ?? emptyQueue), ...(ev.data as QueueStatus) };
}

export const emptyQueue: QueueStatus = {
  paused: false,
  paused_manually: false,
  paused_by_scheduler: false,
  scheduler_reason: '',
  paused_by_storage: false,
  storage_reason: '',
  total: 0,
  cooling_down: 0,
  ready: 0,
  processing: 0,
  merging: false,
};

/** Events that change the file counts (the status line refreshes its stats). */
export function changesStats(ev: TroveEvent): boolean {
  return (
    ev.type === 'file.indexed' ||
    ev.type === 'file.failed' ||
    ev.type === 'file.removed' ||
    ev.type === 'filters.changed' ||
    ev.type === 'folder.removed' ||
    ev.type === 'resync'
  );
}

// ---------------------------------------------------------------------------
// Recent activity (the last file events, newest first)

export interface ActivityEntry {
  key: string;
  type: TroveEvent['type'];
  time: string;
  path: string;
  detail: string;
  /** What an agent asked (mcp.call): the tool and its arguments. */
  title?: string;
}

export function activityOf(ev: TroveEvent): ActivityEntry | null {
  const d = ev.data ?? {};
  const key = `${ev.id}-${ev.type}-${d.id ?? ''}-${d.path ?? d.to ?? ''}`;
  switch (ev.type) {
    case 'file.indexed':
      return { key, type: ev.type, time: ev.time, path: d.path, detail: d.warning || '' };
    case 'file.failed':
      return { key, type: ev.type, time: ev.time, path: d.path, detail: d.error || '' };
    case 'file.removed':
      return { key, type: ev.type, time: ev.time, path: d.path, detail: '' };
    case 'file.moved':
      return { key, type: ev.type, time: ev.time, path: d.to, detail: d.from ? `from ${d.from}` : '' };
    case 'mcp.call':
      return {
        key,
        type: ev.type,
        time: ev.time,
        path: '',
        title: `${d.tool} ${d.arguments || ''}`.trim(),
        detail: d.error ? `refused: ${d.error}` : agentGot(d.results, d.files ?? [], d.bytes),
      };
    default:
      return null;
  }
}

/** What an agent was given: how many files (the first names) and bytes. */
function agentGot(results: number, files: string[], bytes: number): string {
  const names = files.slice(0, 3).map((f) => f.split('/').pop()).join(', ');
  const more = results > 3 ? ', …' : '';
  return `${results} ${results === 1 ? 'file' : 'files'}${names ? ` (${names}${more})` : ''}, ${formatBytes(bytes)} sent`;
}

export function activityReducer(list: ActivityEntry[], ev: TroveEvent, max = 50): ActivityEntry[] {
  const a = activityOf(ev);
  if (!a) return list;
  return [a, ...list].slice(0, max);
}

// ---------------------------------------------------------------------------
// The store

export interface LiveStore {
  folders: Readable<Folder[]>;
  foldersLoaded: Readable<boolean>;
  queue: Readable<QueueStatus | null>;
  stats: Readable<Stats | null>;
  connection: Readable<ConnectionState>;
  activity: Readable<ActivityEntry[]>;
  /** Every event, for screens that react to settings.changed and the like. */
  onEvent(cb: (ev: TroveEvent) => void): () => void;
  refreshFolders(): Promise<void>;
  refreshStats(): Promise<void>;
  setQueue(q: QueueStatus): void;
  /** Feeds an event (the transport does; tests may too). */
  dispatch(ev: TroveEvent): void;
  start(): void;
  stop(): void;
}

export function createLiveStore(deps: {
  subscribe: typeof api.subscribe;
  folders: typeof api.folders;
  stats: typeof api.stats;
  queueStatus: typeof api.queueStatus;
  statsThrottleMs?: number;
  /** Quiet time after folder events before the list is fetched again. */
  reconcileMs?: number;
}): LiveStore {
  const folders = writable<Folder[]>([]);
  const foldersLoaded = writable(false);
  const queue = writable<QueueStatus | null>(null);
  const stats = writable<Stats | null>(null);
  const connection = writable<ConnectionState>('connecting');
  const activity = writable<ActivityEntry[]>([]);
  const listeners = new Set<(ev: TroveEvent) => void>();
  // Folders changed by events while a folder fetch is under way.
  const fetches = new Set<Set<number>>();
  let unsubscribe: (() => void) | null = null;
  let statsTimer: ReturnType<typeof setTimeout> | undefined;
  let statsDue = false;
  const throttle = deps.statsThrottleMs ?? 1000;
  // Folder events from concurrent workers may arrive out of order, so the
  // last one is not always the latest state: once they pause, the list is
  // fetched again (its counts are read at once, from the index).
  const reconcileMs = deps.reconcileMs ?? 400;
  let reconcileTimer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  const reconcileSoon = () => {
    if (!running) return;
    clearTimeout(reconcileTimer);
    reconcileTimer = setTimeout(() => void refreshFolders().catch(() => undefined), reconcileMs);
  };

  const refreshFolders = async () => {
    const changed = new Set<number>();
    fetches.add(changed);
    try {
      const list = await deps.folders();
      folders.set(mergeFolders(get(folders), list.directories ?? [], changed));
      foldersLoaded.set(true);
    } finally {
      fetches.delete(changed);
    }
  };

  const refreshStats = async () => {
    try {
      stats.set(await deps.stats());
    } catch {
      // the status line keeps its last figures
    }
  };

  const statsSoon = () => {
    if (statsTimer) {
      statsDue = true;
      return;
    }
    void refreshStats();
    statsTimer = setTimeout(function again() {
      statsTimer = undefined;
      if (statsDue) {
        statsDue = false;
        statsSoon();
      }
    }, throttle);
  };

  const dispatch = (ev: TroveEvent) => {
    const id = folderIdOf(ev);
    if (id !== undefined) {
      for (const s of fetches) s.add(id);
      reconcileSoon();
    }
    folders.update((f) => foldersReducer(f, ev));
    queue.update((q) => queueReducer(q, ev));
    activity.update((a) => activityReducer(a, ev));
    if (changesStats(ev)) statsSoon();
    if (ev.type === 'resync') {
      void refreshFolders().catch(() => undefined);
      void deps.queueStatus().then((q) => queue.set(q), () => undefined);
    }
    for (const l of listeners) {
      try {
        l(ev);
      } catch (e) {
        console.error(e);
      }
    }
  };

  return {
    folders,
    foldersLoaded,
    queue,
    stats,
    connection,
    activity,
    onEvent(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    refreshFolders,
    refreshStats,
    setQueue: (q) => queue.set(q),
    dispatch,
    start() {
      if (unsubscribe) return;
      running = true;
      unsubscribe = deps.subscribe(dispatch, (s) => {
        connection.set(s);
        // (Re)connected, perhaps after a restart or a token: catch up.
        if (s === 'open') {
          void refreshFolders().catch(() => undefined);
          void refreshStats();
        }
      });
      void refreshFolders().catch(() => foldersLoaded.set(true));
      void refreshStats();
      if (!get(queue)) void deps.queueStatus().then((q) => queue.update((cur) => cur ?? q), () => undefined);
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      running = false;
      clearTimeout(reconcileTimer);
      clearTimeout(statsTimer);
      statsTimer = undefined;
    },
  };
}

/** The app's one live store. */
export const live = createLiveStore({
  subscribe: api.subscribe,
  folders: api.folders,
  stats: api.stats,
  queueStatus: api.queueStatus,
});
