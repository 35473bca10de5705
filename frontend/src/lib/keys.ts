// The platform's modifier key: Cmd on a Mac, Ctrl elsewhere.

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Whether the platform's modifier (Cmd or Ctrl) is held. */
export const modKey = (e: KeyboardEvent | MouseEvent): boolean => (isMac ? e.metaKey : e.ctrlKey);
