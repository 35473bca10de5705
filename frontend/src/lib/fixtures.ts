// Values for the unit tests (nothing in the app imports this).

import type { SearchResult } from './types';

/** A search result for file id: /n/<id>.md, titled "file <id>" unless told. */
export function searchResult(id: number, title = `file ${id}`): SearchResult {
  return {
    file: {
      id,
      file_path: `/n/${id}.md`,
      filename: `${id}.md`,
      extension: '.md',
      created: '',
      modified: '',
      accessed: '',
      title,
      summary: '',
      keywords: [],
      size: 1,
      mime: 'text/markdown',
    },
    relevance_score: 1,
    keyword_score: 1,
    semantic_score: 0,
    snippet: '',
  };
}
