// How a folder's problem file is labelled.

import type { Problem } from './api';
import { t } from './i18n.svelte';

/** "Failed"; "Text cut" for a file whose text was read up to the limit
 * (what was read is searchable); else "Name only". */
export function problemLabel(p: Pick<Problem, 'status' | 'error'>): string {
  if (p.status === 'failed') return t('problems.failed');
  return /truncated|cut at/i.test(p.error ?? '') ? t('problems.textCut') : t('problems.nameOnly');
}
