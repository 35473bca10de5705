import type * as Go from './events';
import type { QueryField } from './fields';
import type { components } from './openapi';

// Shapes of the Trove API (docs/api.md). Both transports return these.
// Those the backend's events carry come from events.ts (generated from the
// Go types); an interface here that extends one only narrows its fields,
// which the compiler holds to the generated type.

/** Whether the embedding provider answers (a notice, never a folder's status). */
export interface EmbeddingHealth extends Go.EmbeddingHealth {
  state: 'ok' | 'failing';
}

export interface Status {
  jobs: number;
  version: string;
  uptime_seconds: number;
  embedding?: EmbeddingHealth;
  ocr?: OCRStatus;
  /** How Trove's ways into the desktop are doing (tray, shortcut, desktop search). */
  desktop?: Integration[];
}

/** One of Trove's ways into the desktop, and how it is doing. */
export interface Integration {
  name: 'tray' | 'shortcut' | 'desktop_search' | string;
  state: 'ok' | 'unavailable' | 'off' | string;
  message: string;
}

/** Whether OCR (extraction.ocr) can run on this machine: tesseract found, its languages. */
export interface OCRStatus {
  available: boolean;
  languages: string[];
  /** Why not, for people; "" when available. */
  message: string;
}

export interface Stats {
  total_files: number;
  total_size: number;
  file_types: Record<string, number>;
  last_indexed: string | null;
  failed_files: number;
}

export interface SearchFilters {
  extensions?: string | string[];
  modified_after?: string;
  modified_before?: string;
  created_after?: string;
  created_before?: string;
  min_size?: number;
  max_size?: number;
  path?: string;
  /** Kinds of file (documents, pdf, images, none, ...). */
  kinds?: string | string[];
  /** Languages of the files' text (ISO 639-1: "de"). */
  language?: string | string[];
}

export type SortKey = 'relevance' | 'modified' | 'name' | 'size' | 'folder' | 'kind';
export type SortOrder = 'asc' | 'desc';

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface SearchRequest {
  query: string;
  directory?: string;
  filters?: SearchFilters;
  limit?: number;
  /** Results to skip (paging). */
  offset?: number;
  sort?: SortKey;
  order?: SortOrder;
  min_score?: number;
  mode?: SearchMode;
  /** Adds `explain` to each result: why it ranks where it does. */
  explain?: boolean;
}

export interface SearchFile {
  id: number;
  file_path: string;
  filename: string;
  extension: string;
  created: string;
  modified: string;
  accessed: string;
  title: string;
  summary: string;
  keywords: string[];
  size: number;
  mime: string;
}

export interface SearchResult {
  file: SearchFile;
  relevance_score: number;
  keyword_score: number;
  semantic_score: number;
  snippet: string;
  /** The page of the file the snippet stands on (PDFs); absent for files without pages. */
  page?: number;
  explain?: Explain;
  /**
   * The file holds a word of the query (or matches it by name); false for a
   * file found by meaning alone; null in mode semantic, which looks no word up.
   */
  keyword_match?: boolean | null;
  /** The kind of file (documents, pdf, code, none, ...). */
  kind?: string;
  /** Other files with the same content that match too. */
  copies?: SearchFile[];
}

/** Why a result ranks where it does (docs/api.md, "explain"). */
export interface Explain {
  keyword: { score: number; text: number; name: number; name_exact?: number; name_weight: number; proximity?: number };
  semantic: { score: number; similarity: number };
  words: ExplainWord[];
  name: { word: string; matched: 'name' | 'extension' | 'folders' }[];
  feedback: string[];
}

export interface ExplainWord {
  word: string;
  source: 'query' | 'correction' | 'feedback';
  of?: string;
  fields: Record<string, number>;
  score: number;
}

export interface SearchResponse {
  results: SearchResult[];
  /** Matching files, copies included. */
  total: number;
  /** True when more files match than Trove counts exactly: total is a lower bound. */
  total_estimated?: boolean;
  /** Results to page through (copies of one content count once). */
  total_groups?: number;
  offset?: number;
  sort?: SortKey;
  order?: SortOrder;
  query: string;
  /** What the results lack, such as "Semantic search is unavailable (...)". */
  notice?: string;
  did_you_mean?: { query: string; corrections: { typed: string; suggested: string }[] } | null;
  facets?: { kinds: KindFacet[]; languages?: LanguageFacet[] };
  /** The fields of the query language the query holds, as the search read them, in the order typed. */
  fields?: QueryField[];
  /**
   * How many of the files found hold a word of the query: 0 with results
   * means none does, and they were found by meaning alone (see matchedWords).
   * null in mode semantic.
   */
  keyword_matches?: number | null;
}

/** A language of the matching files' text (ISO 639-1) and their count. */
export interface LanguageFacet {
  language: string;
  count: number;
}

export interface KindFacet {
  kind: string;
  label: string;
  count: number;
  extensions: { extension: string; count: number }[];
}

export interface Preview {
  id: number;
  file_path: string;
  filename: string;
  mime: string;
  kind: string;
  image: boolean;
  /** The text in parts, each on one page (page: from 1; absent for files without pages). */
  parts: { text: string; mark?: boolean; page?: number }[];
  matches: number;
  truncated: boolean;
}

export interface FileRecord {
  id: number;
  filename: string;
  extension: string;
  created: string;
  modified: string;
  summary: string;
  keywords: string[] | null;
  path: string;
  title: string;
  size: number;
  mime: string;
  accessed: string;
  indexed_at: string | null;
  status: 'indexed' | 'failed';
  error: string | null;
}

export type FolderStatus = 'indexing' | 'watching' | 'complete' | 'error';

export interface Folder {
  id: number;
  path: string;
  file_count: number;
  indexed_count: number;
  failed_count: number;
  /** Failed, or indexed with a note (name only, text cut): the Problems list. */
  problem_count?: number;
  status: FolderStatus;
  added_at?: string;
  status_message: string;
  last_scan?: string | null;
  /** Files still waiting in the queue, from scan.progress events (not in the folder list). */
  pending?: number;
  /** Files found by name whose content is not read yet (names come first). */
  pending_count?: number;
  embedding?: EmbeddingHealth;
}

export interface FolderList {
  total_directories: number;
  directories: Folder[];
}

export interface WatchRequest {
  path: string;
  recursive?: boolean;
  file_pattern?: string;
}

export interface WatchResult {
  directory: string;
  files_found: number;
  indexing_started: boolean;
  job_id: number;
}

export interface Problem {
  id: number;
  path: string;
  status: 'failed' | 'indexed';
  error: string;
  modified: string;
}

export interface ProblemList {
  problems: Problem[];
  total: number;
}

export type QueueStatus = Go.QueueStatus;

export interface QueueItem {
  id: string;
  file_path: string;
  action: string;
  status: 'cooling_down' | 'ready' | 'processing' | string;
  enqueued_at: number;
  cooldown_expires_at: number;
  dest_path: string | null;
  retry_count: number;
  last_error: string | null;
  directory_id: number;
}

export interface QueueItems {
  items: QueueItem[];
  total: number;
  offset: number;
}

export type RuleType = 'time_window' | 'on_ac_power' | 'cpu_below' | 'battery_above';
export type Day = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface SchedulerRule extends Go.SchedulerRule {
  type: RuleType;
  days?: Day[];
  percent?: number;
}

export interface SchedulerSettings extends Go.SchedulerSettings {
  combine_mode: 'ALL' | 'ANY';
  rules: SchedulerRule[];
}

export interface Settings extends Go.Settings {
  scheduler: SchedulerSettings;
}

/** The desktop's "start at login" entry for the app (the window only). */
export interface LoginItem {
  supported: boolean;
  enabled: boolean;
  path: string;
  command: string;
}

/** Commands that bind a global key to quick search on one desktop. */
export interface HotkeySetup {
  desktop: string;
  key: string;
  commands: string;
  note: string;
}

/** A partial settings update: dotted keys ("queue.max_concurrency") to values. */
export type SettingsPatch = Record<string, unknown>;

export type FilterMode = 'blacklist' | 'whitelist';
export type PatternList = 'blacklist_exclude' | 'blacklist_include' | 'whitelist_include' | 'whitelist_exclude';

export interface FilterConfig {
  version: number;
  mode: FilterMode;
  exclude: string[];
  include: string[];
  blacklist_exclude: string[];
  blacklist_include: string[];
  whitelist_include: string[];
  whitelist_exclude: string[];
  config_path: string;
}

export type FilterDefaults = Omit<FilterConfig, 'version' | 'config_path'>;

export interface FilterUpdate {
  mode?: FilterMode;
  apply_immediately?: boolean;
  exclude?: string[];
  include?: string[];
  blacklist_exclude?: string[];
  blacklist_include?: string[];
  whitelist_include?: string[];
  whitelist_exclude?: string[];
}

export interface PatternRequest {
  pattern: string;
  pattern_type?: 'exclude' | 'include' | PatternList;
  apply_immediately?: boolean;
}

export interface FilterChange {
  success: boolean;
  message: string;
  config: FilterConfig;
  removed_count: number;
}

export interface FilterApplied {
  success: boolean;
  message: string;
  removed_count: number;
}

// Saved searches: the API's own shapes (openapi.d.ts).
type Schemas = components['schemas'];
/** A search the server keeps under a name (GET /api/saved-searches). */
export type SavedSearch = Schemas['SavedSearch'];
export type SavedSearchList = Schemas['SavedSearchList'];
/** The body of POST /api/saved-searches. */
export type SavedSearchRequest = Schemas['SavedSearchRequest'];
/** The body of PUT /api/saved-searches/{id}: name and notify alone, or query with the rest of the search. */
export type SavedSearchChange = Schemas['SavedSearchChange'];
/** New files match a saved search that notifies (the saved.matched event). */
export type SavedMatched = Go.SavedMatched;

/** An AI agent's call of a tool of the MCP server (the mcp.call event). */
export type AgentCall = Go.AgentCall;

/** Event kinds: the backend's (generated in events.ts), and the stream's own resync. */
export type EventType = Go.EventKind | 'resync';

export interface TroveEvent<T = any> {
  id: number;
  type: EventType;
  time: string;
  data: T;
}

// Every kind, once: a kind the backend adds and this misses does not compile.
const eventKinds: Record<EventType, true> = {
  'file.indexed': true,
  'file.failed': true,
  'file.removed': true,
  'file.moved': true,
  'folder.status': true,
  'folder.removed': true,
  'scan.progress': true,
  'queue.status': true,
  'settings.changed': true,
  'filters.changed': true,
  'embedding.status': true,
  'index.status': true,
  'mcp.call': true,
  'saved.matched': true,
  'saved.changed': true,
  resync: true,
};

/** The kinds a client listens for. */
export const EVENT_TYPES = Object.keys(eventKinds) as EventType[];
