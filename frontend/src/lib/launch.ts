// Screens the desktop app opens with something to show: the app sends a
// route with parameters (see app/window.go): "/?q=roof" for a desktop
// search's "more results", "/quick?dir=/home/me/notes" for a file
// manager's "Search in this folder". A browser opened on /quick?dir=...
// gets the same scope.

import { writable } from 'svelte/store';
import { navigate, normalize } from './router';
import { mainSearch } from './stores';
import { emptyParams } from './search';

function initialScope(): string {
  if (typeof location === 'undefined' || normalize(location.pathname) !== '/quick') return '';
  return new URLSearchParams(location.search).get('dir') ?? '';
}

/** The folder quick search is scoped to, or "" for everywhere. */
export const quickScope = writable<string>(initialScope());

/** Opens a route the app sent, applying its parameters. */
export function openRoute(to: string): void {
  const [path, query = ''] = to.split('?', 2);
  const params = new URLSearchParams(query);
  if (normalize(path) === '/quick') {
    quickScope.set(params.get('dir') ?? '');
  } else if (params.has('q')) {
    mainSearch.replace({ ...emptyParams, query: params.get('q') ?? '' });
  }
  navigate(path);
}
