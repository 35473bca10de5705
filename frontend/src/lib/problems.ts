// How a folder's problem file is labelled.

import type { Problem } from './api';

/** "Failed"; "Text cut" for a file whose text was read up to the limit
 * (what was read is searchable); else "Name only". */
export function problemLabel(p: Pick<Problem, 'status' | 'error'>): string {
  if (p.status === 'failed') return 'Failed';
  return /truncated|cut at/i.test(p.error ?? '') ? 'Text cut' : 'Name only';
}
