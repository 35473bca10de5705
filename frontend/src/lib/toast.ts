// Short-lived notices ("Opened roof-leak.md", errors of background actions).

import { writable } from 'svelte/store';

export interface Toast {
  id: number;
  kind: 'info' | 'ok' | 'error';
  text: string;
}

export const toasts = writable<Toast[]>([]);
let next = 1;

export function toast(text: string, kind: Toast['kind'] = 'info', ms = kind === 'error' ? 6000 : 2800): void {
  const id = next++;
  toasts.update((t) => [...t.slice(-3), { id, kind, text }]);
  setTimeout(() => dismiss(id), ms);
}

export function dismiss(id: number): void {
  toasts.update((t) => t.filter((x) => x.id !== id));
}
