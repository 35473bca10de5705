// Picking several results at once, by file id (ids outlive paging and the
// refresh that follows the index): as in a file manager, a click moves to
// one (picking none: the cursor is the selection), Ctrl/Cmd+click adds or
// removes one (the one clicked before too, on the first), Shift+click
// picks the run from the last one clicked, Ctrl/Cmd+A picks every result
// shown, a checkbox adds or removes its row alone.

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
 * The picked files after a click on id, in the order shown. With none
 * picked yet, a Ctrl+click picks the last one clicked (the anchor, else
 * current, the keyboard's cursor) too, and a Shift range starts from it.
 */
export function pick(p: Picked, order: readonly number[], id: number, how: PickHow, current?: number): Picked {
  const from = p.anchor ?? current;
  const seed = p.ids.size === 0 && from !== undefined ? new Set([from]) : new Set(p.ids);
  if (how.range) {
    const anchor = from ?? id;
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
    return { ids: seed, anchor: seed.size ? id : null };
  }
  return { ids: new Set(), anchor: id };
}

/** A row's checkbox: this one in or out, the others as they are. */
export function toggleOne(p: Picked, id: number): Picked {
  const ids = new Set(p.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: ids.size ? id : null };
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
