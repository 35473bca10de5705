import { describe, it, expect } from 'vitest';
import { describeQueue } from './queue';
import { emptyQueue } from './live.svelte';

describe('the queue in words', () => {
  it('says the storage hold first: it holds whatever else does', () => {
    const held = describeQueue({ ...emptyQueue, paused: true, paused_by_storage: true, storage_reason: 'database or disk is full', paused_manually: true, total: 4, processing: 2 });
    expect(held).toEqual({ key: 'held', title: 'Held: the index cannot be written', detail: 'database or disk is full', foreign: true });
    expect(describeQueue({ ...emptyQueue, paused: true, paused_by_storage: true }).detail).toMatch(/full or failing/);
  });

  it('tells the other states apart', () => {
    expect(describeQueue(null).key).toBe('unknown');
    expect(describeQueue({ ...emptyQueue, paused: true, paused_manually: true }).key).toBe('paused');
    expect(describeQueue({ ...emptyQueue, paused: true, paused_by_scheduler: true, scheduler_reason: 'on battery power' })).toMatchObject({
      key: 'scheduled',
      detail: 'on battery power',
    });
    expect(describeQueue(emptyQueue).key).toBe('idle');
    expect(describeQueue({ ...emptyQueue, merging: true })).toMatchObject({ key: 'idle', detail: expect.stringMatching(/^Tidying the index/) });
    expect(describeQueue({ ...emptyQueue, total: 2, processing: 1, merging: true }).key).toBe('running');
    expect(describeQueue({ ...emptyQueue, total: 3, processing: 2 })).toMatchObject({ key: 'running', title: 'Indexing' });
  });
});
