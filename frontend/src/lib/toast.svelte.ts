// Short-lived notices ("Opened roof-leak.md", errors of background actions).

export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'error';
  text: string;
  /** The language of a text that is Trove's own words, not the UI's ("en"). */
  lang?: string;
  /** A button beside the text ("Show"): runs and dismisses the toast. */
  action?: { label: string; run: () => void };
}

/** The toasts shown, oldest first (at most four). */
export const toasts = new (class {
  list: Toast[] = $state.raw([]);
})();
let next = 1;

export function toast(text: string, kind: Toast['kind'] = 'info', ms = kind === 'error' ? 6000 : 2800, lang?: string, action?: Toast['action']): void {
  const id = next++;
  toasts.list = [...toasts.list.slice(-3), { id, kind, text, lang, action }];
  setTimeout(() => dismiss(id), ms);
}

/** A notice with a button that acts on it; it stays long enough to be read and used. */
export function toastAction(text: string, label: string, run: () => void): void {
  toast(text, 'info', 10_000, undefined, { label, run });
}

/** A message of the server's, in its own words (English). */
export function toastServer(text: string, kind: Toast['kind'] = 'info'): void {
  toast(text, kind, undefined, 'en');
}

export function dismiss(id: number): void {
  toasts.list = toasts.list.filter((x) => x.id !== id);
}
