// Short-lived notices ("Opened roof-leak.md", errors of background actions).

export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'error';
  text: string;
  /** The language of a text that is Trove's own words, not the UI's ("en"). */
  lang?: string;
}

/** The toasts shown, oldest first (at most four). */
export const toasts = new (class {
  list: Toast[] = $state.raw([]);
})();
let next = 1;

export function toast(text: string, kind: Toast['kind'] = 'info', ms = kind === 'error' ? 6000 : 2800, lang?: string): void {
  const id = next++;
  toasts.list = [...toasts.list.slice(-3), { id, kind, text, lang }];
  setTimeout(() => dismiss(id), ms);
}

/** A message of the server's, in its own words (English). */
export function toastServer(text: string, kind: Toast['kind'] = 'info'): void {
  toast(text, kind, undefined, 'en');
}

export function dismiss(id: number): void {
  toasts.list = toasts.list.filter((x) => x.id !== id);
}
