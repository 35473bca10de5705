// Picking several results at once, by file id (ids outlive paging and the
// refresh that follows the index): as in a file manager, a click picks
// one, Ctrl/Cmd+click adds or removes one, Shift+click picks the run from
// the last one clicked, Ctrl/Cmd+A picks every result shown.

export interface Picked {
  /** The files picked. */
  readonly ids: ReadonlySet<number>;
  /** Where a Shift range starts: the last file clicked without Shift. */
  readonly anchor: number | null;
}

export const nothingPicked: Picked = { ids: new Set(), anchor: null };

export interface PickHow {
  /** Ctrl/Cmd held: add or remove this one, keep the rest. */
  toggle?: boolean;
  /** Shift held: the run from the anchor to this one. */
  range?: boolean;
}

/**
 * The picked files after a click on id, in the order shown. current is the
 * result under the keyboard's cursor: a first Ctrl+click keeps it picked
 * too, and a Shift range without an anchor starts from it.
 */
export function pick(p: Picked, order: readonly number[], id: number, how: PickHow, current?: number): Picked {
  const seed = p.ids.size === 0 && current !== undefined ? new Set([current]) : new Set(p.ids);
  if (how.range) {
    const anchor = p.anchor ?? current ?? id;
    const a = order.indexOf(anchor);
    const b = order.indexOf(id);
    if (a < 0 || b < 0) return { ids: new Set([id]), anchor: id };
    const run = order.slice(Math.min(a, b), Math.max(a, b) + 1);
    const ids = how.toggle ? new Set([...seed, ...run]) : new Set(run);
    return { ids, anchor };
  }
  if (how.toggle) {
    if (seed.has(id)) seed.delete(id);
    else seed.add(id);
    return { ids: seed, anchor: id };
  }
  return { ids: new Set([id]), anchor: id };
}

/** Every file shown. */
export function pickAll(order: readonly number[]): Picked {
  return { ids: new Set(order), anchor: order[0] ?? null };
}

/** The picked files still shown (after a refresh or a new page); p itself when none left. */
export function keepShown(p: Picked, order: readonly number[]): Picked {
  const shown = new Set(order);
  const ids = [...p.ids].filter((id) => shown.has(id));
  if (ids.length === p.ids.size) return p;
  return { ids: new Set(ids), anchor: p.anchor !== null && shown.has(p.anchor) ? p.anchor : null };
}

/** The picked files in the order shown. */
export function pickedInOrder<T>(p: Picked, items: readonly T[], idOf: (t: T) => number): T[] {
  return items.filter((t) => p.ids.has(idOf(t)));
}
