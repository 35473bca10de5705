// Saved searches: the server keeps them (in the index), so every window,
// browser and client has the same ones. This holds the list, turns the
// main search's parameters into a saved request and back, and runs one.

import * as api from './api';
import type { SavedMatched, SavedSearch, SavedSearchRequest, SortKey } from './api';
import { buildRequest, emptyParams, sortKeys, type SearchParams } from './search.svelte';
import { mainSearch } from './shared.svelte';
import { navigate } from './router.svelte';
import { t } from './i18n.svelte';
import { toast } from './toast.svelte';

/** The saved searches, by name, as last loaded. */
export const saved = new (class {
  list: SavedSearch[] = $state.raw([]);
  loaded = $state(false);
  /** Why the list could not be loaded, or "". */
  error = $state('');
})();

/** Loads the list again. */
export async function loadSaved(): Promise<void> {
  try {
    saved.list = await api.savedSearches();
    saved.error = '';
  } catch (e) {
    saved.error = api.asApiError(e).message;
  } finally {
    saved.loaded = true;
  }
}

/** The request a saved search keeps of the parameters: POST /api/search/'s body without its page. */
export function requestOf(p: SearchParams, now: Date): Omit<SavedSearchRequest, 'name'> {
  const { query, directory, filters, sort, order } = buildRequest(p, now);
  return { query, directory, filters, sort, order };
}

const isDay = (s: unknown): s is string => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s);
const list = (v: string | string[] | null | undefined): string[] => (v == null ? [] : Array.isArray(v) ? v : [v]);

/**
 * The main search's parameters of a saved search. What they cannot hold
 * (a size or a path filter, a mode) is left out: saved from this screen,
 * a search has none of it.
 */
export function paramsOf(ss: SavedSearch): SearchParams {
  const f = ss.filters ?? {};
  const p: SearchParams = { ...emptyParams, query: ss.query, directory: ss.directory ?? '' };
  p.extensions = list(f.extensions).map((e) => e.replace(/^\./, '').toLowerCase());
  p.kinds = list(f.kinds);
  p.languages = list(f.language).map((l) => l.toLowerCase());
  if (sortKeys.includes(ss.sort as SortKey)) p.sort = ss.sort as SortKey;
  if (ss.order === 'asc' || ss.order === 'desc') p.order = ss.order;
  if (isDay(f.modified_after) || isDay(f.modified_before)) {
    p.date = 'custom';
    p.customAfter = isDay(f.modified_after) ? f.modified_after : '';
    p.customBefore = isDay(f.modified_before) ? f.modified_before : '';
  }
  return p;
}

/** Shows a saved search's results in the main search. */
export function showSaved(ss: SavedSearch): void {
  navigate('/');
  mainSearch.replace(paramsOf(ss));
}

/** Shows the results of the saved search with this id (from a notification). */
export async function showSavedById(id: number): Promise<void> {
  try {
    showSaved(await api.savedSearch(id));
  } catch (e) {
    toast(t('saved.runFailed', { error: api.asApiError(e).message }), 'error');
  }
}

/** What a saved.matched notification says. */
export function matchedText(ev: SavedMatched): string {
  return t('saved.matched', { count: ev.count, name: ev.name });
}
