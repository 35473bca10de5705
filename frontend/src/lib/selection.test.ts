import { describe, expect, it } from 'vitest';
import { keepShown, nothingPicked, pick, pickAll, pickedInOrder, toggleOne, type Picked } from './selection';

const order = [10, 11, 12, 13, 14, 15];
const ids = (p: Picked) => [...p.ids].sort((a, b) => a - b);

describe('pick', () => {
  it('a click picks none and becomes where the next Ctrl or Shift click starts', () => {
    const p = pick({ ids: new Set([10, 11]), anchor: 10 }, order, 13, {});
    expect(ids(p)).toEqual([]);
    expect(p.anchor).toBe(13);
    expect(ids(pick(p, order, 15, { toggle: true }, 14))).toEqual([13, 15]);
    expect(ids(pick(p, order, 11, { range: true }, 14))).toEqual([11, 12, 13]);
  });

  it('unpicking the last one leaves nothing to start from', () => {
    const p = pick({ ids: new Set([12]), anchor: 12 }, order, 12, { toggle: true });
    expect(ids(p)).toEqual([]);
    expect(p.anchor).toBe(null);
  });

  it('Ctrl+click adds and removes one, keeping the cursor’s result on the first', () => {
    let p = pick(nothingPicked, order, 12, { toggle: true }, 10);
    expect(ids(p)).toEqual([10, 12]);
    p = pick(p, order, 14, { toggle: true }, 12);
    expect(ids(p)).toEqual([10, 12, 14]);
    p = pick(p, order, 12, { toggle: true }, 14);
    expect(ids(p)).toEqual([10, 14]);
    expect(p.anchor).toBe(12);
  });

  it('Shift+click picks the run from the anchor, either way, and replaces the last run', () => {
    let p = pick(nothingPicked, order, 11, {});
    p = pick(p, order, 14, { range: true }, 13);
    expect(ids(p)).toEqual([11, 12, 13, 14]);
    p = pick(p, order, 10, { range: true });
    expect(ids(p)).toEqual([10, 11]);
    expect(p.anchor).toBe(11);
  });

  it('Shift without an anchor starts from the cursor', () => {
    expect(ids(pick(nothingPicked, order, 15, { range: true }, 13))).toEqual([13, 14, 15]);
  });

  it('Ctrl+Shift+click adds the run to what is picked', () => {
    let p = pick(nothingPicked, order, 10, {});
    p = pick(p, order, 13, { toggle: true });
    p = pick(p, order, 15, { range: true, toggle: true });
    expect(ids(p)).toEqual([10, 13, 14, 15]);
  });

  it('a range from a file no longer shown picks the one clicked', () => {
    const p = pick({ ids: new Set([99]), anchor: 99 }, order, 12, { range: true });
    expect(ids(p)).toEqual([12]);
  });
});

describe('toggleOne, pickAll, keepShown, pickedInOrder', () => {
  it('a checkbox adds or removes its row alone', () => {
    let p = pick(nothingPicked, order, 10, {});
    p = toggleOne(p, 12);
    expect(ids(p)).toEqual([12]);
    p = toggleOne(toggleOne(p, 14), 12);
    expect(ids(p)).toEqual([14]);
  });

  it('picks every file shown', () => {
    expect(ids(pickAll(order))).toEqual(order);
    expect(ids(pickAll([]))).toEqual([]);
  });

  it('drops what is no longer shown, and keeps the same value when nothing changed', () => {
    const p: Picked = { ids: new Set([10, 12, 99]), anchor: 99 };
    const k = keepShown(p, order);
    expect(ids(k)).toEqual([10, 12]);
    expect(k.anchor).toBe(null);
    const same: Picked = { ids: new Set([10]), anchor: 10 };
    expect(keepShown(same, order)).toBe(same);
  });

  it('lists the picked in the order shown, not the order picked', () => {
    const p = pick(pick(nothingPicked, order, 14, {}), order, 11, { toggle: true });
    expect(pickedInOrder(p, order, (x) => x)).toEqual([11, 14]);
  });
});
