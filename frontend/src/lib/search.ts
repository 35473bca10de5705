// Search as you type: a debounced controller whose state is a Svelte store.
// Each request carries a sequence number; an answer that is not the latest
// request's is dropped, so a slow early answer never replaces a newer one.

import { writable, type Readable } from 'svelte/store';
import { ApiError, asApiError, type SearchRequest, type SearchResponse, type SearchResult } from './api';
import { localDay } from './format';

export type DateRange = 'any' | 'today' | 'week' | 'month' | 'year' | 'custom';

export interface SearchParams {
  query: string;
  /** Extensions without the dot ("pdf"); empty means every type. */
  extensions: string[];
  date: DateRange;
  /** The day for date = "custom" (YYYY-MM-DD). */
  customAfter: string;
  /** A watched folder to search in, or "" for all. */
  directory: string;
}

export type SearchPhase = 'idle' | 'loading' | 'done' | 'error';

export interface SearchState {
  params: SearchParams;
  phase: SearchPhase;
  /** True while a request (or its debounce) is pending; results stay shown. */
  pending: boolean;
  results: SearchResult[];
  total: number;
  /** The query of the results shown. */
  shownQuery: string;
  error: ApiError | null;
  selected: number;
  /** What the shown results lack (semantic search unavailable), or "". */
  notice: string;
}

export const emptyParams: SearchParams = { query: '', extensions: [], date: 'any', customAfter: '', directory: '' };

export const dateLabels: Record<DateRange, string> = {
  any: 'Any time',
  today: 'Today',
  week: 'Past 7 days',
  month: 'Past 30 days',
  year: 'Past year',
  custom: 'Since…',
};

/** The first day (YYYY-MM-DD, local) a date range includes, or "" for any. */
export function modifiedAfter(p: Pick<SearchParams, 'date' | 'customAfter'>, now: Date): string {
  const back = (days: number) => {
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
    return localDay(d);
  };
  switch (p.date) {
    case 'today':
      return back(0);
    case 'week':
      return back(6);
    case 'month':
      return back(29);
    case 'year':
      return back(364);
    case 'custom':
      return /^\d{4}-\d{2}-\d{2}$/.test(p.customAfter) ? p.customAfter : '';
    default:
      return '';
  }
}

/** The POST /api/search/ body for the parameters. */
export function buildRequest(p: SearchParams, now: Date, limit = 50): SearchRequest {
  const req: SearchRequest = { query: p.query.trim(), limit };
  if (p.directory) req.directory = p.directory;
  const filters: SearchRequest['filters'] = {};
  if (p.extensions.length) filters.extensions = [...p.extensions];
  const after = modifiedAfter(p, now);
  if (after) filters.modified_after = after;
  if (Object.keys(filters).length) req.filters = filters;
  return req;
}

export function hasFilters(p: SearchParams): boolean {
  return p.extensions.length > 0 || p.directory !== '' || modifiedAfter(p, new Date()) !== '';
}

export interface SearchControllerOptions {
  search: (req: SearchRequest, opt: { signal?: AbortSignal }) => Promise<SearchResponse>;
  debounceMs?: number;
  limit?: number;
  now?: () => Date;
}

export interface SearchController extends Readable<SearchState> {
  /** Changes some parameters and searches after the debounce. */
  set(p: Partial<SearchParams>): void;
  /** Searches now (Enter in the box, a retry, a chip change). */
  runNow(): void;
  /** Searches again quietly when the index changed (nothing when idle). */
  refresh(): void;
  /** Moves the selection by delta, within the results. */
  move(delta: number): void;
  select(index: number): void;
  selected(): SearchResult | undefined;
  clear(): void;
  destroy(): void;
}

export function createSearchController(opt: SearchControllerOptions): SearchController {
  const debounceMs = opt.debounceMs ?? 150;
  const now = opt.now ?? (() => new Date());
  let state: SearchState = {
    params: { ...emptyParams },
    phase: 'idle',
    pending: false,
    results: [],
    total: 0,
    shownQuery: '',
    error: null,
    selected: 0,
    notice: '',
  };
  const store = writable(state);
  const commit = (next: Partial<SearchState>) => {
    state = { ...state, ...next };
    store.set(state);
  };

  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: AbortController | null = null;

  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    inflight?.abort();
    inflight = null;
  };

  const run = async () => {
    timer = undefined;
    const params = state.params;
    const query = params.query.trim();
    if (!query) return;
    const mine = ++seq;
    inflight?.abort();
    const ctrl = typeof AbortController !== 'undefined' ? new AbortController() : null;
    inflight = ctrl;
    commit({ pending: true, phase: state.phase === 'done' ? 'done' : 'loading' });
    try {
      const res = await opt.search(buildRequest(params, now(), opt.limit), { signal: ctrl?.signal });
      if (mine !== seq) return; // a newer request was made: this answer is stale
      inflight = null;
      const results = res.results ?? [];
      // The same query again (a refresh): the selection stays on its file.
      const prev = query === state.shownQuery ? state.results[state.selected]?.file.id : undefined;
      const keep = prev === undefined ? -1 : results.findIndex((r) => r.file.id === prev);
      commit({
        phase: 'done',
        pending: false,
        results,
        total: res.total ?? res.results?.length ?? 0,
        shownQuery: query,
        error: null,
        selected: Math.max(0, keep),
        notice: res.notice ?? '',
      });
    } catch (e) {
      if (mine !== seq) return;
      if (e instanceof DOMException && e.name === 'AbortError') return;
      inflight = null;
      commit({ phase: 'error', pending: false, error: asApiError(e) });
    }
  };

  const schedule = (delay: number) => {
    cancel();
    if (!state.params.query.trim()) {
      seq++; // any answer still on its way is now stale
      commit({ phase: 'idle', pending: false, results: [], total: 0, shownQuery: '', error: null, selected: 0, notice: '' });
      return;
    }
    commit({ pending: true });
    if (delay <= 0) void run();
    else timer = setTimeout(() => void run(), delay);
  };

  return {
    subscribe: store.subscribe,
    set(p) {
      const params = { ...state.params, ...p };
      const changed = JSON.stringify(params) !== JSON.stringify(state.params);
      commit({ params });
      if (!changed) return;
      // Typing waits for a pause; chips and scopes search at once.
      const typed = Object.keys(p).length === 1 && 'query' in p;
      schedule(typed ? debounceMs : 0);
    },
    runNow() {
      schedule(0);
    },
    refresh() {
      if (state.params.query.trim() && !timer) void run();
    },
    move(delta) {
      const n = state.results.length;
      if (!n) return;
      commit({ selected: Math.min(n - 1, Math.max(0, state.selected + delta)) });
    },
    select(index) {
      if (index >= 0 && index < state.results.length) commit({ selected: index });
    },
    selected() {
      return state.results[state.selected];
    },
    clear() {
      commit({ params: { ...state.params, query: '' } });
      schedule(0);
    },
    destroy() {
      cancel();
      seq++;
    },
  };
}
