// Values for the unit tests (nothing in the app imports this).

import type { SearchResult, Settings } from './types';

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

/** The default settings, as GET /api/settings/ answers them (a new copy each time). */
export function defaultSettings(): Settings {
  return {
    summarizer: { provider: 'builtin', model: '', base_url: '', api_key_env: '', timeout_seconds: 60, max_concurrency: 1 },
    embedding: { provider: 'builtin', model: '', base_url: '', api_key_env: '' },
    queue: { cooldown_seconds: 2, max_concurrency: 2, max_retries: 3 },
    scheduler: { enabled: false, combine_mode: 'ALL', check_interval_seconds: 60, rules: [] },
    extraction: { max_file_size_mb: 100, timeout_seconds: 30, max_text_mb: 10, ocr: false },
    ui: { language: '' },
    desktop: { shortcut: '<Ctrl><Alt>space' },
    mcp: { allow_open: false, allow_watch: false },
  };
}
