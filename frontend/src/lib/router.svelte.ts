// Routing: paths (/, /folders, /activity, /settings, /quick). In a browser
// they are real paths (the server answers index.html for any of them); in
// the desktop window, and whenever the page was opened with one, a hash
// (#/quick) carries the route.

import { isDesktop } from './api';

export const routes = ['/', '/folders', '/activity', '/settings', '/quick'] as const;
export type Route = (typeof routes)[number];

export function normalize(path: string): Route {
  const p = ('/' + path.replace(/^[#/]+/, '')).replace(/\/+$/, '') || '/';
  return (routes as readonly string[]).includes(p) ? (p as Route) : '/';
}

function useHash(): boolean {
  return isDesktop() || location.hash.startsWith('#/') || !/^https?:$/.test(location.protocol);
}

export function currentRoute(): Route {
  if (typeof location === 'undefined') return '/';
  if (location.hash.startsWith('#/')) return normalize(location.hash.slice(1));
  return normalize(location.pathname);
}

/** The current route; navigate() and the browser's history change it. */
export const router = new (class {
  route: Route = $state(currentRoute());
})();

export function navigate(to: string): void {
  const r = normalize(to);
  if (useHash()) {
    if (location.hash !== '#' + r) location.hash = r;
  } else if (location.pathname !== r) {
    history.pushState(null, '', r);
  }
  router.route = r;
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => (router.route = currentRoute()));
  window.addEventListener('hashchange', () => (router.route = currentRoute()));
}
