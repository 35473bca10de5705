// How the indexing queue is doing, in words (the Activity screen's header).

import { formatCount } from './format';
import type { QueueStatus } from './types';

export interface QueueState {
  /** unknown, held, paused, scheduled, idle or running. */
  key: string;
  title: string;
  detail: string;
}

export function describeQueue(q: QueueStatus | null): QueueState {
  if (!q) return { key: 'unknown', title: 'Connecting…', detail: '' };
  // Before any other: no pause or schedule ends this one.
  if (q.paused_by_storage)
    return {
      key: 'held',
      title: 'Held: the index cannot be written',
      detail: q.storage_reason || 'Its disk is full or failing. Indexing resumes by itself once a write succeeds.',
    };
  if (q.paused_manually && q.paused_by_scheduler)
    return { key: 'paused', title: 'Paused', detail: `Paused by you, and held by the schedule: ${q.scheduler_reason}` };
  if (q.paused_manually) return { key: 'paused', title: 'Paused', detail: 'Indexing waits until you resume. Changes are still collected.' };
  if (q.paused_by_scheduler)
    return { key: 'scheduled', title: 'Held by the schedule', detail: q.scheduler_reason || 'The scheduler rules do not hold right now.' };
  if (q.total === 0 && q.merging)
    return { key: 'idle', title: 'Up to date', detail: 'Tidying the index for faster searches, in the background. Searches work as usual.' };
  if (q.total === 0) return { key: 'idle', title: 'Up to date', detail: 'Nothing waits to be indexed.' };
  return { key: 'running', title: 'Indexing', detail: `${formatCount(q.processing)} in progress now (read a few at a time, as Settings says, then written together).` };
}
