// Screens the desktop app opens with something to show: the app sends a
// route with parameters (see app/window.go): "/?q=roof" for a desktop
// search's "more results", "/?saved=3" for a saved search in the tray, "/quick?dir=/home/me/notes" for a file
// manager's "Search in this folder". A browser opened on /quick?dir=...
// gets the same scope.

import { navigate, normalize } from './router.svelte';
import { mainSearch } from './shared.svelte';
import { emptyParams } from './search.svelte';
import { showSavedById } from './saved.svelte';

function initialScope(): string {
  if (typeof location === 'undefined' || normalize(location.pathname) !== '/quick') return '';
  return new URLSearchParams(location.search).get('dir') ?? '';
}

/** The folder quick search is scoped to: dir, or "" for everywhere. */
export const quickScope = new (class {
  dir: string = $state(initialScope());
})();

/** Opens a route the app sent, applying its parameters. */
export function openRoute(to: string): void {
  const at = to.indexOf('?');
  const path = at < 0 ? to : to.slice(0, at);
  const params = new URLSearchParams(at < 0 ? '' : to.slice(at + 1));
  if (normalize(path) === '/quick') {
    quickScope.dir = params.get('dir') ?? '';
  } else if (params.has('q')) {
    mainSearch.replace({ ...emptyParams, query: params.get('q') ?? '' });
  } else if (Number(params.get('saved')) > 0) {
    void showSavedById(Number(params.get('saved')));
  }
  navigate(path);
}
