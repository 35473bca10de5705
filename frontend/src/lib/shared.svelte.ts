// App-wide instances: the main search keeps its query and results while the
// person visits other screens.

import * as api from './api';
import { SearchController } from './search.svelte';

export const mainSearch = new SearchController({ search: api.search, debounceMs: 150, explain: true });

/** Set by "Add a folder" elsewhere: the folders screen opens ready to add one. */
export const addFolder = $state({ requested: false });
