// Short-lived notices ("Opened roof-leak.md", errors of background actions).


export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'error';
  text: string;
}

/** The toasts shown, oldest first (at most four). */
export const toasts = new (class {
  list: Toast[] = $state.raw([]);
})();
let next = 1;

export function toast(text: string, kind: Toast['kind'] = 'info', ms = kind === 'error' ? 6000 : 2800): void {
  const id = next++;
  toasts.list = [...toasts.list.slice(-3), { id, kind, text }];
  setTimeout(() => dismiss(id), ms);
}

export function dismiss(id: number): void {
  toasts.list = toasts.list.filter((x) => x.id !== id);
}
