// The columns of the results table, and the search's sort each one
// stands for: a click on a column's header sorts every result by it
// (the request's sort and order), not only the rows loaded.

import type { SortKey } from './api';

export type Column = 'name' | 'folder' | 'size' | 'modified' | 'kind';

export const columns: Column[] = ['name', 'folder', 'size', 'modified', 'kind'];

/** The search's sort for a column. */
export const searchSort: Record<Column, SortKey> = { name: 'name', folder: 'folder', size: 'size', modified: 'modified', kind: 'kind' };
