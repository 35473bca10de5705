// Search as you type: a debounced controller whose state is one $state.raw snapshot.
// Each request carries a sequence number; an answer that is not the latest
// request's is dropped, so a slow early answer never replaces a newer one.

import type { QueryField } from './fields';
import {
  ApiError,
  asApiError,
  type KindFacet,
  type LanguageFacet,
  type SearchRequest,
  type SearchResponse,
  type SearchResult,
  type SortKey,
  type SortOrder,
} from './api';
import { localDay } from './format';
import { t } from './i18n.svelte';

export type DateRange = 'any' | 'today' | 'week' | 'month' | 'year' | 'custom';

export interface SearchParams {
  query: string;
  /** Extensions without the dot ("pdf"); empty means every type. */
  extensions: string[];
  date: DateRange;
  /** The first day for date = "custom" (YYYY-MM-DD), or "" for open. */
  customAfter: string;
  /** The last day for date = "custom" (YYYY-MM-DD), or "" for open. */
  customBefore: string;
  /** A watched folder to search in, or "" for all. */
  directory: string;
  /** Kinds of file (documents, pdf, ..., none); empty means every kind. */
  kinds: string[];
  /** Languages of the files' text (ISO 639-1: "de"); empty means every language. */
  languages: string[];
  sort: SortKey;
  /** "" is the sort's own default (descending, ascending for names). */
  order: SortOrder | '';
}

export type SearchPhase = 'idle' | 'loading' | 'done' | 'error';

export interface SearchState {
  params: SearchParams;
  phase: SearchPhase;
  /** True while a request (or its debounce) is pending; results stay shown. */
  pending: boolean;
  results: SearchResult[];
  /** Matching files, copies included. */
  total: number;
  /** More files match than are counted: total is a lower bound. */
  estimated: boolean;
  /** Results to page through (copies count once). */
  totalGroups: number;
  /** A next page is being fetched. */
  loadingMore: boolean;
  didYouMean: string;
  facets: KindFacet[];
  /** The matching files' languages, with their counts (before the language filter). */
  languageFacets: LanguageFacet[];
  /** The fields of the query language the shown query holds (ext:pdf, *.go). */
  fields: QueryField[];
  /** The query of the results shown. */
  shownQuery: string;
  error: ApiError | null;
  selected: number;
  /** What the shown results lack (semantic search unavailable), or "". */
  notice: string;
  /** Some file holds a word of the query (matchedWords): false with results means they are related by meaning only. */
  matched: boolean;
}

export const emptyParams: SearchParams = {
  query: '',
  extensions: [],
  date: 'any',
  customAfter: '',
  customBefore: '',
  directory: '',
  kinds: [],
  languages: [],
  sort: 'relevance',
  order: '',
};

/** A sort in words. */
export const sortLabel = (k: SortKey): string => t(`sort.${k}`);

/** A kind of file in words; a kind the catalogue does not know keeps the server's label. */
export const kindLabel = (kind: string, label: string): string => t(`kinds.${kind}` as 'kinds.other', { defaultValue: label });

/** The direction a sort goes in without an explicit order. */
export function defaultOrder(sort: SortKey): SortOrder {
  return sort === 'name' || sort === 'folder' || sort === 'kind' ? 'asc' : 'desc';
}

/** A date range in words. */
export const dateLabel = (d: DateRange): string => t(`dates.${d}`);

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
      return isDay(p.customAfter) ? p.customAfter : '';
    default:
      return '';
  }
}

const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

/** The last day (YYYY-MM-DD, inclusive) a date range includes, or "". */
export function modifiedBefore(p: Pick<SearchParams, 'date' | 'customBefore'>): string {
  return p.date === 'custom' && isDay(p.customBefore) ? p.customBefore : '';
}

/** The POST /api/search/ body for the parameters. */
export function buildRequest(p: SearchParams, now: Date, limit = 50, explain = false, offset = 0): SearchRequest {
  const req: SearchRequest = { query: p.query.trim(), limit };
  if (offset > 0) req.offset = offset;
  if (p.sort && p.sort !== 'relevance') req.sort = p.sort;
  if (p.order && p.order !== defaultOrder(p.sort || 'relevance')) req.order = p.order;
  if (explain) req.explain = true;
  if (p.directory) req.directory = p.directory;
  const filters: SearchRequest['filters'] = {};
  if (p.extensions.length) filters.extensions = [...p.extensions];
  if (p.kinds.length) filters.kinds = [...p.kinds];
  if (p.languages.length) filters.language = [...p.languages];
  const after = modifiedAfter(p, now);
  if (after) filters.modified_after = after;
  const before = modifiedBefore(p);
  if (before) filters.modified_before = before;
  if (Object.keys(filters).length) req.filters = filters;
  return req;
}

export function hasFilters(p: SearchParams): boolean {
  return (
    p.extensions.length > 0 ||
    p.kinds.length > 0 ||
    p.languages.length > 0 ||
    p.directory !== '' ||
    modifiedAfter(p, new Date()) !== '' ||
    modifiedBefore(p) !== ''
  );
}

// The search in the address bar: q, sort, order, kind, ext, lang, date,
// after, before, dir. Only what differs from the defaults is written.

const dateRanges: DateRange[] = ['any', 'today', 'week', 'month', 'year', 'custom'];
/** Every order of results (the API's sort), as the sort chip lists them. */
export const sortKeys: readonly SortKey[] = ['relevance', 'modified', 'name', 'size', 'folder', 'kind'];

/** The URL query string ("?q=...", or "" for no search) of the parameters. */
export function paramsToURL(p: SearchParams): string {
  const u = new URLSearchParams();
  if (p.query.trim()) u.set('q', p.query);
  if (p.sort !== 'relevance') u.set('sort', p.sort);
  if (p.order) u.set('order', p.order);
  for (const k of p.kinds) u.append('kind', k);
  for (const e of p.extensions) u.append('ext', e);
  for (const l of p.languages) u.append('lang', l);
  if (p.date !== 'any') u.set('date', p.date);
  if (p.date === 'custom' && p.customAfter) u.set('after', p.customAfter);
  if (p.date === 'custom' && p.customBefore) u.set('before', p.customBefore);
  if (p.directory) u.set('dir', p.directory);
  const s = u.toString();
  return s ? '?' + s : '';
}

/** The parameters of a URL query string; anything unknown is left at its default. */
export function paramsFromURL(search: string): SearchParams {
  const u = new URLSearchParams(search);
  const p: SearchParams = { ...emptyParams, extensions: [], kinds: [], languages: [] };
  p.query = u.get('q') ?? '';
  const sort = u.get('sort') as SortKey | null;
  if (sort && sortKeys.includes(sort)) p.sort = sort;
  const order = u.get('order');
  if (order === 'asc' || order === 'desc') p.order = order;
  p.kinds = u.getAll('kind').filter((k) => /^[a-z]+$/.test(k));
  p.extensions = u.getAll('ext').filter((e) => e !== '');
  p.languages = u.getAll('lang').filter((l) => /^[a-z]{2,3}$/.test(l));
  const date = u.get('date') as DateRange | null;
  if (date && dateRanges.includes(date)) p.date = date;
  if (p.date === 'custom') {
    p.customAfter = isDay(u.get('after') ?? '') ? u.get('after')! : '';
    p.customBefore = isDay(u.get('before') ?? '') ? u.get('before')! : '';
  }
  p.directory = u.get('dir') ?? '';
  return p;
}

/** Everything but the parameters when there is no search. */
const idle: Omit<SearchState, 'params'> = {
  phase: 'idle',
  pending: false,
  results: [],
  total: 0,
  estimated: false,
  totalGroups: 0,
  loadingMore: false,
  didYouMean: '',
  fields: [],
  facets: [],
  languageFacets: [],
  shownQuery: '',
  error: null,
  selected: 0,
  notice: '',
  matched: false,
};

/**
 * Whether a search found files that hold a word of its query: the rule of
 * every Trove client (docs/api.md, "Matches and meaning"). With
 * keyword_matches 0 none does, and any results were found by meaning alone:
 * "No files match". Without the count (a semantic search) any result counts.
 */
export function matchedWords(res: SearchResponse): boolean {
  return res.keyword_matches != null ? res.keyword_matches > 0 : (res.results?.length ?? 0) > 0;
}

/** Whether more results than those shown exist. */
export function morePages(st: SearchState): boolean {
  return st.phase === 'done' && st.results.length < st.totalGroups;
}

export interface SearchControllerOptions {
  search: (req: SearchRequest, opt: { signal?: AbortSignal }) => Promise<SearchResponse>;
  debounceMs?: number;
  limit?: number;
  /** Asks for each result's explanation ("why this result"). */
  explain?: boolean;
  now?: () => Date;
}

/**
 * Search as you type over one set of parameters. Its state is one
 * immutable snapshot ($state.raw), replaced whole on each change: readers
 * (components, $derived) see a consistent state, and a test reads it
 * directly (c.state.phase).
 */
export class SearchController {
  state: SearchState = $state.raw({ params: { ...emptyParams }, ...idle });

  readonly #opt: SearchControllerOptions;
  readonly #debounceMs: number;
  readonly #limit: number;
  readonly #now: () => Date;
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inflight: AbortController | null = null;

  constructor(opt: SearchControllerOptions) {
    this.#opt = opt;
    this.#debounceMs = opt.debounceMs ?? 150;
    this.#limit = opt.limit ?? 50;
    this.#now = opt.now ?? (() => new Date());
  }

  #commit(next: Partial<SearchState>) {
    this.state = { ...this.state, ...next };
  }

  #cancel() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inflight?.abort();
    this.#inflight = null;
  }

  async #run() {
    this.#timer = undefined;
    const st = this.state;
    const query = st.params.query.trim();
    if (!query) return;
    const mine = ++this.#seq;
    this.#inflight?.abort();
    const ctrl = typeof AbortController !== 'undefined' ? new AbortController() : null;
    this.#inflight = ctrl;
    this.#commit({ pending: true, phase: st.phase === 'done' ? 'done' : 'loading' });
    try {
      // A refresh keeps as many results as are shown.
      const size = query === st.shownQuery ? Math.max(this.#limit, st.results.length) : this.#limit;
      const res = await this.#opt.search(buildRequest(st.params, this.#now(), size, this.#opt.explain), { signal: ctrl?.signal });
      if (mine !== this.#seq) return; // a newer request was made: this answer is stale
      this.#inflight = null;
      const results = res.results ?? [];
      // The same query again (a refresh): the selection stays on its file.
      const cur = this.state;
      const prev = query === cur.shownQuery ? cur.results[cur.selected]?.file.id : undefined;
      const keep = prev === undefined ? -1 : results.findIndex((r) => r.file.id === prev);
      this.#commit({
        phase: 'done',
        pending: false,
        results,
        ...counts(res),
        loadingMore: false,
        shownQuery: query,
        error: null,
        selected: Math.max(0, keep),
        notice: res.notice ?? '',
        matched: matchedWords(res),
      });
    } catch (e) {
      if (mine !== this.#seq) return;
      if (e instanceof DOMException && e.name === 'AbortError') return;
      this.#inflight = null;
      this.#commit({ phase: 'error', pending: false, error: asApiError(e) });
    }
  }

  async #loadMore() {
    const st = this.state;
    if (!this.hasMore() || st.loadingMore || st.pending) return;
    const mine = this.#seq;
    this.#commit({ loadingMore: true });
    try {
      const res = await this.#opt.search(buildRequest(st.params, this.#now(), this.#limit, this.#opt.explain, st.results.length), {});
      if (mine !== this.#seq) return; // the search changed meanwhile
      const have = new Set(this.state.results.map((r) => r.file.id));
      const more = (res.results ?? []).filter((r) => !have.has(r.file.id));
      const results = [...this.state.results, ...more];
      // A page with nothing new ends the paging, whatever the count says.
      const ends = more.length === 0 ? { totalGroups: results.length } : {};
      // Whether words matched is the search's, not this page's.
      this.#commit({ results, ...counts(res), matched: matchedWords({ ...res, results }), ...ends, loadingMore: false });
    } catch (e) {
      if (mine !== this.#seq) return;
      this.#commit({ loadingMore: false, phase: 'error', error: asApiError(e) });
    }
  }

  #schedule(delay: number) {
    this.#cancel();
    if (!this.state.params.query.trim()) {
      this.#seq++; // any answer still on its way is now stale
      this.#commit(idle);
      return;
    }
    this.#commit({ pending: true });
    if (delay <= 0) void this.#run();
    else this.#timer = setTimeout(() => void this.#run(), delay);
  }

  /** Changes some parameters and searches after the debounce. */
  set(p: Partial<SearchParams>): void {
    const params = { ...this.state.params, ...p };
    const changed = JSON.stringify(params) !== JSON.stringify(this.state.params);
    this.#commit({ params });
    if (!changed) return;
    // Typing waits for a pause; chips and scopes search at once.
    const typed = Object.keys(p).length === 1 && 'query' in p;
    this.#schedule(typed ? this.#debounceMs : 0);
  }

  /** Searches now (Enter in the box, a retry, a chip change). */
  runNow(): void {
    this.#schedule(0);
  }

  /** Searches again quietly when the index changed (nothing when idle). */
  refresh(): void {
    if (this.state.params.query.trim() && !this.#timer) void this.#run();
  }

  /** Fetches the next page and appends it (nothing when all are shown). */
  loadMore(): void {
    void this.#loadMore();
  }

  /** Whether more results than those shown exist. */
  hasMore(): boolean {
    return morePages(this.state);
  }

  /** Replaces every parameter (the address bar changed) and searches at once. */
  replace(p: SearchParams): void {
    const params = { ...p, extensions: [...p.extensions], kinds: [...p.kinds], languages: [...p.languages] };
    if (JSON.stringify(params) === JSON.stringify(this.state.params)) return;
    this.#commit({ params });
    this.#schedule(0);
  }

  /** Sorts by key (its own default order); the same key again turns the order around. */
  sortBy(key: SortKey): void {
    const p = this.state.params;
    if (key !== p.sort) this.set({ sort: key, order: '' });
    else this.set({ order: (p.order || defaultOrder(p.sort)) === 'asc' ? 'desc' : 'asc' });
  }

  /** Drops every filter (type, language, date, folder), keeping the query and the sort. */
  clearFilters(): void {
    this.set({ extensions: [], kinds: [], languages: [], date: 'any', customAfter: '', customBefore: '', directory: '' });
  }

  /** Moves the selection by delta, within the results (loading more at the end). */
  move(delta: number): void {
    const n = this.state.results.length;
    if (!n) return;
    const to = this.state.selected + delta;
    if (to >= n - 5 && this.hasMore()) void this.#loadMore();
    this.#commit({ selected: Math.min(n - 1, Math.max(0, to)) });
  }

  select(index: number): void {
    if (index >= 0 && index < this.state.results.length) this.#commit({ selected: index });
  }

  selected(): SearchResult | undefined {
    return this.state.results[this.state.selected];
  }

  clear(): void {
    this.#commit({ params: { ...this.state.params, query: '' } });
    this.#schedule(0);
  }

  destroy(): void {
    this.#cancel();
    this.#seq++;
  }
}

function counts(res: SearchResponse) {
  const total = res.total ?? res.results?.length ?? 0;
  return {
    total,
    estimated: res.total_estimated === true,
    totalGroups: res.total_groups ?? total,
    didYouMean: res.did_you_mean?.query ?? '',
    facets: res.facets?.kinds ?? [],
    languageFacets: res.facets?.languages ?? [],
    fields: res.fields ?? [],
  };
}
