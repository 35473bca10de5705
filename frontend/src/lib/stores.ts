// App-wide instances: the main search keeps its query and results while the
// person visits other screens.

import * as api from './api';
import { createSearchController } from './search';

export const mainSearch = createSearchController({ search: api.search, debounceMs: 150, explain: true });
