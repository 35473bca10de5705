// The platform's modifier key: Cmd on a Mac, Ctrl elsewhere.

import { t } from './i18n.svelte';

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Whether the platform's modifier (Cmd or Ctrl) is held. */
export const modKey = (e: KeyboardEvent | MouseEvent): boolean => (isMac ? e.metaKey : e.ctrlKey);

/** The modifier as its key is labelled: ⌘, or Ctrl in the UI's language (Strg in German). */
export const modLabel = (): string => (isMac ? '⌘' : t('keys.ctrl'));
