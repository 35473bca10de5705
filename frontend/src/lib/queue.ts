// How the indexing queue is doing, in words (the Activity screen's header).

import type { QueueStatus } from './types';
import { t } from './i18n.svelte';

export interface QueueState {
  /** unknown, held, paused, scheduled, idle or running. */
  key: string;
  title: string;
  detail: string;
  /** The detail is the server's own words (a reason it gave), in English. */
  foreign?: boolean;
}

export function describeQueue(q: QueueStatus | null): QueueState {
  if (!q) return { key: 'unknown', title: t('queueState.connecting'), detail: '' };
  // Before any other: no pause or schedule ends this one.
  if (q.paused_by_storage)
    return q.storage_reason
      ? { key: 'held', title: t('queueState.heldTitle'), detail: q.storage_reason, foreign: true }
      : { key: 'held', title: t('queueState.heldTitle'), detail: t('queueState.heldText') };
  if (q.paused_manually && q.paused_by_scheduler)
    return { key: 'paused', title: t('queueState.paused'), detail: t('queueState.pausedAndHeld', { reason: q.scheduler_reason }) };
  if (q.paused_manually) return { key: 'paused', title: t('queueState.paused'), detail: t('queueState.pausedText') };
  if (q.paused_by_scheduler)
    return q.scheduler_reason
      ? { key: 'scheduled', title: t('queueState.scheduledTitle'), detail: q.scheduler_reason, foreign: true }
      : { key: 'scheduled', title: t('queueState.scheduledTitle'), detail: t('queueState.scheduledText') };
  if (q.total === 0 && q.merging) return { key: 'idle', title: t('queueState.upToDate'), detail: t('queueState.merging') };
  if (q.total === 0) return { key: 'idle', title: t('queueState.upToDate'), detail: t('queueState.nothing') };
  return { key: 'running', title: t('queueState.indexing'), detail: t('queueState.running', { count: q.processing }) };
}
