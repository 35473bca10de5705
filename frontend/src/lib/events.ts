// Generated from backend/core/event.go by TestEventTypesMatchTheWebUI; do not edit.
// Regenerate: go test ./backend/core -run TestEventTypesMatchTheWebUI -update

export interface FileIndexed {
  id: number;
  path: string;
  dir_id: number;
  title: string;
  warning: string;
}

export interface FileFailed {
  id: number;
  path: string;
  dir_id: number;
  error: string;
}

export interface FileRemoved {
  id: number;
  path: string;
}

export interface FileMoved {
  id: number;
  from: string;
  to: string;
  dir_id: number;
  files: number;
}

export interface FolderStatus {
  id: number;
  path: string;
  status: string;
  message: string;
  file_count: number;
  indexed_count: number;
  failed_count: number;
  problem_count: number;
}

export interface FolderRemoved {
  id: number;
  path: string;
  absorbed_by: number;
}

export interface ScanProgress {
  id: number;
  path: string;
  status: string;
  file_count: number;
  indexed_count: number;
  failed_count: number;
  problem_count: number;
  pending: number;
  pending_count: number;
}

export interface QueueStatus {
  paused: boolean;
  paused_manually: boolean;
  paused_by_scheduler: boolean;
  scheduler_reason: string;
  paused_by_storage: boolean;
  storage_reason: string;
  total: number;
  cooling_down: number;
  ready: number;
  processing: number;
  merging: boolean;
}

export interface Settings {
  summarizer: SummarizerSettings;
  embedding: EmbeddingSettings;
  queue: QueueSettings;
  scheduler: SchedulerSettings;
  extraction: ExtractionSettings;
  ui: UISettings;
  desktop: DesktopSettings;
  mcp: MCPSettings;
}

export interface FiltersChanged {
  version: number;
  removed_count: number;
}

export interface EmbeddingHealth {
  state: string;
  model: string;
  message: string;
  since: string | null;
  failed_requests: number;
}

export interface IndexHealth {
  status: string;
  message: string;
  notice: string;
  checked_at: string | null;
}

export interface AgentCall {
  tool: string;
  arguments: string;
  results: number;
  files: string[] | null;
  bytes: number;
  error: string;
}

export interface SavedMatched {
  id: number;
  name: string;
  count: number;
  files: MatchedFile[] | null;
}

export interface SavedChanged {
  id: number;
  name: string;
  deleted: boolean;
}

export interface SummarizerSettings {
  provider: string;
  model: string;
  base_url: string;
  api_key_env: string;
  timeout_seconds: number;
  max_concurrency: number;
}

export interface EmbeddingSettings {
  provider: string;
  model: string;
  base_url: string;
  api_key_env: string;
}

export interface QueueSettings {
  cooldown_seconds: number;
  max_concurrency: number;
  max_retries: number;
}

export interface SchedulerSettings {
  enabled: boolean;
  combine_mode: string;
  check_interval_seconds: number;
  rules: SchedulerRule[] | null;
}

export interface ExtractionSettings {
  max_file_size_mb: number;
  timeout_seconds: number;
  max_text_mb: number;
  ocr: boolean;
}

export interface UISettings {
  language: string;
}

export interface DesktopSettings {
  shortcut: string;
}

export interface MCPSettings {
  allow_open: boolean;
  allow_watch: boolean;
}

export interface MatchedFile {
  id: number;
  path: string;
}

export interface SchedulerRule {
  type: string;
  start?: string;
  end?: string;
  days?: string[] | null;
  percent?: number | null;
}

/** The payload (data) of each kind of event on /api/updates. */
export interface EventPayloads {
  'file.indexed': FileIndexed;
  'file.failed': FileFailed;
  'file.removed': FileRemoved;
  'file.moved': FileMoved;
  'folder.status': FolderStatus;
  'folder.removed': FolderRemoved;
  'scan.progress': ScanProgress;
  'queue.status': QueueStatus;
  'settings.changed': Settings;
  'filters.changed': FiltersChanged;
  'embedding.status': EmbeddingHealth;
  'index.status': IndexHealth;
  'mcp.call': AgentCall;
  'saved.matched': SavedMatched;
  'saved.changed': SavedChanged;
}

export type EventKind = keyof EventPayloads;
