// Copying text: the desktop window's clipboard, else the browser's, else
// the old selection trick (pages not served from a secure origin).

import { isDesktop } from './api';
import { t } from './i18n.svelte';

export async function copyText(text: string): Promise<void> {
  const rt = isDesktop() ? window.runtime : undefined;
  if (rt?.ClipboardSetText && (await rt.ClipboardSetText(text))) return;
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // refused (no focus, no permission): try the selection
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error(t('actions.clipboardRefused'));
}
