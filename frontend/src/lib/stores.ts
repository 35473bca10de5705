// App-wide instances: the main search keeps its query and results while the
// person visits other screens.

import { writable } from 'svelte/store';
import * as api from './api';
import { createSearchController } from './search';

export const mainSearch = createSearchController({ search: api.search, debounceMs: 150, explain: true });

/** Set by "Add a folder" elsewhere: the folders screen opens ready to add one. */
export const addFolderRequested = writable(false);
