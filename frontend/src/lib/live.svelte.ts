// Live state: pure reducers that fold events into the folder list and the
// queue status, and the app-wide live state that feeds them from api.subscribe.

import * as api from './api';
import type { AgentCall, ConnectionState, Folder, FolderStatus, QueueStatus, Stats, TroveEvent } from './api';
import { basename } from './format';

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
      } else {
        if (typeof d.pending === 'number') patch.pending = d.pending;
        if (typeof d.pending_count === 'number') patch.pending_count = d.pending_count;
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
// Recent activity (the last file events and agents' calls, newest first)

export interface ActivityEntry {
  key: string;
  type: TroveEvent['type'];
  time: string;
  path: string;
  /** Trove's own words about the file (a warning, an error), in English. */
  detail: string;
  /** Where a moved file was. */
  from?: string;
  /** What an AI agent asked of the MCP server and what it was given (mcp.call). */
  agent?: AgentCall;
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
      return { key, type: ev.type, time: ev.time, path: d.to, detail: '', from: d.from || undefined };
    case 'mcp.call': {
      const agent: AgentCall = {
        tool: d.tool ?? '',
        arguments: d.arguments ?? '',
        results: d.results ?? 0,
        files: d.files ?? [],
        bytes: d.bytes ?? 0,
        error: d.error ?? '',
      };
      return { key, type: ev.type, time: ev.time, path: '', detail: '', agent };
    }
    default:
      return null;
  }
}

/** The names of the first files an agent was given, and how many more it got. */
export function agentFiles(a: AgentCall, max = 3): { names: string[]; more: number } {
  const names = (a.files ?? []).slice(0, max).map(basename);
  return { names, more: Math.max(0, a.results - names.length) };
}

export function activityReducer(list: ActivityEntry[], ev: TroveEvent, max = 50): ActivityEntry[] {
  const a = activityOf(ev);
  if (!a) return list;
  return [a, ...list].slice(0, max);
}

// ---------------------------------------------------------------------------
// The live state

export interface LiveDeps {
  subscribe: typeof api.subscribe;
  folders: typeof api.folders;
  stats: typeof api.stats;
  queueStatus: typeof api.queueStatus;
  statsThrottleMs?: number;
  /** Quiet time after folder events before the list is fetched again. */
  reconcileMs?: number;
}

/**
 * The app's view of the server, kept current by its events: folders, queue,
 * stats, connection and recent activity. Each field is a $state.raw value
 * replaced by the reducers above, never mutated in place.
 */
export class Live {
  folders: Folder[] = $state.raw([]);
  foldersLoaded = $state(false);
  queue: QueueStatus | null = $state.raw(null);
  stats: Stats | null = $state.raw(null);
  connection: ConnectionState = $state('connecting');
  activity: ActivityEntry[] = $state.raw([]);

  readonly #deps: LiveDeps;
  readonly #listeners = new Set<(ev: TroveEvent) => void>();
  // Folders changed by events while a folder fetch is under way.
  readonly #fetches = new Set<Set<number>>();
  #unsubscribe: (() => void) | null = null;
  #statsTimer: ReturnType<typeof setTimeout> | undefined;
  #statsDue = false;
  #reconcileTimer: ReturnType<typeof setTimeout> | undefined;
  #running = false;

  constructor(deps: LiveDeps) {
    this.#deps = deps;
  }

  // Folder events from concurrent workers may arrive out of order, so the
  // last one is not always the latest state: once they pause, the list is
  // fetched again (its counts are read at once, from the index).
  #reconcileSoon() {
    if (!this.#running) return;
    clearTimeout(this.#reconcileTimer);
    this.#reconcileTimer = setTimeout(() => void this.refreshFolders().catch(() => undefined), this.#deps.reconcileMs ?? 400);
  }

  async refreshFolders(): Promise<void> {
    const changed = new Set<number>();
    this.#fetches.add(changed);
    try {
      const list = await this.#deps.folders();
      this.folders = mergeFolders(this.folders, list.directories ?? [], changed);
      this.foldersLoaded = true;
    } finally {
      this.#fetches.delete(changed);
    }
  }

  async refreshStats(): Promise<void> {
    try {
      this.stats = await this.#deps.stats();
    } catch {
      // the status line keeps its last figures
    }
  }

  #statsSoon() {
    if (this.#statsTimer) {
      this.#statsDue = true;
      return;
    }
    void this.refreshStats();
    this.#statsTimer = setTimeout(() => {
      this.#statsTimer = undefined;
      if (this.#statsDue) {
        this.#statsDue = false;
        this.#statsSoon();
      }
    }, this.#deps.statsThrottleMs ?? 1000);
  }

  setQueue(q: QueueStatus): void {
    this.queue = q;
  }

  /** Every event, for screens that react to settings.changed and the like. */
  onEvent(cb: (ev: TroveEvent) => void): () => void {
    this.#listeners.add(cb);
    return () => this.#listeners.delete(cb);
  }

  /** Feeds an event (the transport does; tests may too). */
  dispatch = (ev: TroveEvent): void => {
    const id = folderIdOf(ev);
    if (id !== undefined) {
      for (const s of this.#fetches) s.add(id);
      this.#reconcileSoon();
    }
    this.folders = foldersReducer(this.folders, ev);
    this.queue = queueReducer(this.queue, ev);
    this.activity = activityReducer(this.activity, ev);
    if (changesStats(ev)) this.#statsSoon();
    if (ev.type === 'resync') {
      void this.refreshFolders().catch(() => undefined);
      void this.#deps.queueStatus().then((q) => (this.queue = q), () => undefined);
    }
    for (const l of this.#listeners) {
      try {
        l(ev);
      } catch (e) {
        console.error(e);
      }
    }
  };

  start(): void {
    if (this.#unsubscribe) return;
    this.#running = true;
    this.#unsubscribe = this.#deps.subscribe(this.dispatch, (s) => {
      this.connection = s;
      // (Re)connected, perhaps after a restart or a token: catch up.
      if (s === 'open') {
        void this.refreshFolders().catch(() => undefined);
        void this.refreshStats();
      }
    });
    void this.refreshFolders().catch(() => (this.foldersLoaded = true));
    void this.refreshStats();
    if (!this.queue) void this.#deps.queueStatus().then((q) => (this.queue = this.queue ?? q), () => undefined);
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#running = false;
    clearTimeout(this.#reconcileTimer);
    clearTimeout(this.#statsTimer);
    this.#statsTimer = undefined;
  }
}

/** The app's one live state. */
export const live = new Live({
  subscribe: api.subscribe,
  folders: api.folders,
  stats: api.stats,
  queueStatus: api.queueStatus,
});
