// The columns of the results table and how each sorts: name, size and
// modified are the search's own sorts (the request's sort and order, over
// every result); the API cannot sort by folder or kind, so those sort the
// rows loaded so far, here.

import type { SearchResult, SortKey, SortOrder } from './api';
import { dirname } from './format';

export type Column = 'name' | 'folder' | 'size' | 'modified' | 'kind';

export const columns: Column[] = ['name', 'folder', 'size', 'modified', 'kind'];

/** The search's sort for a column, or null when the loaded rows are sorted here. */
export const searchSort: Record<Column, SortKey | null> = { name: 'name', folder: null, size: 'size', modified: 'modified', kind: null };

/** A sort of the loaded rows by a column the search cannot sort by. */
export interface LocalSort {
  column: 'folder' | 'kind';
  order: SortOrder;
}

/** What a row is sorted by in a column sorted here. */
export function rowKey(r: SearchResult, column: LocalSort['column']): string {
  return column === 'folder' ? dirname(r.file.file_path) : r.kind || (r.file.extension || '').replace(/^\./, '');
}

/**
 * The indices of the results in the order shown: as they came, or by a
 * local sort (then by name, so equal folders keep a stable order).
 */
export function rowOrder(results: readonly SearchResult[], sort: LocalSort | null): number[] {
  const idx = results.map((_, i) => i);
  if (!sort) return idx;
  const dir = sort.order === 'asc' ? 1 : -1;
  const keys = results.map((r) => rowKey(r, sort.column));
  return idx.sort((a, b) => dir * keys[a].localeCompare(keys[b]) || results[a].file.filename.localeCompare(results[b].file.filename) || a - b);
}
