// The one API module of the UI. Every operation is a typed async function
// that returns the HTTP API's JSON shapes (docs/api.md), by fetch on
// relative URLs. In a browser they reach Trove's address; inside the
// desktop window the window's own origin hands them to the same API
// handler in process. The window alone also has Wails bindings
// (window.go.app.App.*) for what belongs to the desktop and has no route
// (the folder dialog, hiding the window, start at login, hotkeys), and
// its events arrive as Wails events instead of EventSource.
//
// Errors are normalised into ApiError {status?, code, message, field?}.

import { t } from './i18n.svelte';

import type {
  FileRecord,
  FilterApplied,
  FilterChange,
  FilterConfig,
  FilterDefaults,
  FilterUpdate,
  FolderList,
  HotkeySetup,
  LoginItem,
  PatternRequest,
  ProblemList,
  QueueItems,
  QueueStatus,
  SavedSearch,
  SavedSearchChange,
  SavedSearchList,
  SavedSearchRequest,
  SearchRequest,
  SearchResponse,
  Preview,
  Settings,
  SettingsPatch,
  Stats,
  Status,
  TroveEvent,
  WatchRequest,
  WatchResult,
} from './types';
import { EVENT_TYPES } from './types';

export * from './types';

export class ApiError extends Error {
  status?: number;
  code: string;
  field?: string;

  constructor(init: { status?: number; code: string; message: string; field?: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    if (init.status !== undefined) this.status = init.status;
    if (init.field) this.field = init.field;
  }
}

/** Any thrown value as an ApiError (for showing it). */
export function asApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof Error) return new ApiError({ code: 'ERROR', message: e.message });
  return new ApiError({ code: 'ERROR', message: String(e) });
}

// ---------------------------------------------------------------------------
// Transport choice

interface Bindings {
  [method: string]: (...args: any[]) => Promise<any>;
}

interface WailsRuntime {
  EventsOn(name: string, cb: (...data: any[]) => void): (() => void) | void;
  EventsOff?(name: string, ...more: string[]): void;
  ClipboardSetText?(text: string): Promise<boolean>;
}

declare global {
  interface Window {
    go?: { app?: { App?: Bindings } };
    runtime?: WailsRuntime;
  }
}

function bindings(): Bindings | undefined {
  return typeof window === 'undefined' ? undefined : window.go?.app?.App;
}

/** True inside the desktop window (the Wails bindings are present). */
export function isDesktop(): boolean {
  return bindings() !== undefined;
}

// ---------------------------------------------------------------------------
// Error normalisation

const codeOfStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * An HTTP error body of any of the API's three families as an ApiError:
 *   status:  {status: "error", error: {code, message, field}}
 *   success: {success: false, message, code}
 *   bare:    {error: "..."}
 * Anything else keeps the HTTP status and the raw text.
 */
export function normalizeHttpError(status: number, body: unknown, rawText = ''): ApiError {
  const fallbackCode = codeOfStatus[status] ?? `HTTP_${status}`;
  if (body && typeof body === 'object') {
    const b = body as Record<string, any>;
    if (b.error && typeof b.error === 'object') {
      return new ApiError({
        status,
        code: str(b.error.code) ?? fallbackCode,
        message: str(b.error.message) ?? (rawText.trim() || fallbackCode),
        field: str(b.error.field),
      });
    }
    if (b.success === false || (str(b.message) && str(b.code))) {
      return new ApiError({
        status,
        code: str(b.code) ?? fallbackCode,
        message: str(b.message) ?? fallbackCode,
        field: str(b.field),
      });
    }
    if (str(b.error)) {
      return new ApiError({ status, code: fallbackCode, message: b.error });
    }
  }
  const text = rawText.trim();
  return new ApiError({ status, code: fallbackCode, message: text || t('api.httpFailed', { status }) });
}

/**
 * A rejected binding call as an ApiError. The desktop rejects with a JSON
 * string {"code", "message", "field"}; anything else keeps its text.
 */
export function normalizeBindingError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  let text: string;
  if (typeof e === 'string') text = e;
  else if (e instanceof Error) text = e.message;
  else if (e && typeof e === 'object' && 'code' in e && 'message' in e) return fromObject(e as any, '');
  else text = String(e);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && (str(parsed.code) || str(parsed.message))) {
      return fromObject(parsed, text);
    }
  } catch {
    // not JSON: the raw text is the message
  }
  return new ApiError({ code: 'ERROR', message: text || t('api.desktopError') });
}

function fromObject(o: Record<string, any>, text: string): ApiError {
  return new ApiError({
    status: typeof o.status === 'number' ? o.status : undefined,
    code: str(o.code) ?? 'ERROR',
    message: str(o.message) ?? text,
    field: str(o.field),
  });
}

// ---------------------------------------------------------------------------
// Token (TROVE_TOKEN): asked for once on a 401 and kept in localStorage.

export const TOKEN_KEY = 'trove.token';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable: the token lives for this request only
  }
}

type TokenPrompt = () => Promise<string | null>;

let tokenPrompt: TokenPrompt = async () =>
  typeof window !== 'undefined' && typeof window.prompt === 'function'
    ? window.prompt('This Trove needs its access token (TROVE_TOKEN):')
    : null;
let pendingPrompt: Promise<string | null> | null = null;
let promptDeclined = false;

/** Replaces how the token is asked for (the app shows its own dialog). */
export function setTokenPrompt(prompt: TokenPrompt): void {
  tokenPrompt = prompt;
}

/** Asks for the token now (also after an earlier refusal); one prompt at a time. */
export function requestToken(): Promise<string | null> {
  promptDeclined = false;
  return askToken();
}

function askToken(): Promise<string | null> {
  if (pendingPrompt) return pendingPrompt;
  if (promptDeclined) return Promise.resolve(null);
  pendingPrompt = (async () => {
    try {
      const token = (await tokenPrompt())?.trim() || null;
      if (token) setToken(token);
      else promptDeclined = true;
      return token;
    } finally {
      pendingPrompt = null;
    }
  })();
  return pendingPrompt;
}

/** Whether the person closed the token dialog without a token. */
export function tokenDeclined(): boolean {
  return promptDeclined;
}

/** For tests: forget prompt state. */
export function resetTokenState(): void {
  pendingPrompt = null;
  promptDeclined = false;
}

// ---------------------------------------------------------------------------
// HTTP transport

interface HttpOptions {
  signal?: AbortSignal;
}

/** One request with the stored token; on 401 a token from elsewhere or
 * the person (asked once) gets one more try. */
async function request(method: string, path: string, body?: unknown, opt: HttpOptions = {}, accept = 'application/json'): Promise<Response> {
  const send = async (token: string | null): Promise<Response> => {
    const headers: Record<string, string> = { Accept: accept };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      return await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: opt.signal,
        credentials: 'same-origin',
      });
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new ApiError({ code: 'NETWORK', message: t('api.unreachable') });
    }
  };

  let used = getToken();
  let res = await send(used);
  if (res.status === 401) {
    const current = getToken();
    // Another request may have got a token meanwhile; else ask (once).
    const token = current && current !== used ? current : await askToken();
    if (token) {
      used = token;
      res = await send(token);
      if (res.status === 401 && getToken() === token) setToken(null);
    }
  }
  return res;
}

/** The body's JSON, or undefined when it is empty or not JSON. */
function parseJSON(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The ApiError of a refused request, from its body. */
async function refusal(res: Response): Promise<ApiError> {
  const text = await res.text();
  return normalizeHttpError(res.status, parseJSON(text), text || res.statusText);
}

async function http<T>(method: string, path: string, body?: unknown, opt: HttpOptions = {}): Promise<T> {
  const res = await request(method, path, body, opt);
  if (!res.ok) throw await refusal(res);
  const text = await res.text();
  const json = parseJSON(text);
  if (json === undefined && text) {
    throw new ApiError({ status: res.status, code: 'INVALID_RESPONSE', message: t('api.notJSON') });
  }
  return (json ?? null) as T;
}

function data<T>(p: Promise<{ data: T }>): Promise<T> {
  return p.then((r) => r.data);
}

const nothing = (): null => null;

// ---------------------------------------------------------------------------
// Desktop transport

async function bind<T>(name: string, ...args: unknown[]): Promise<T> {
  const fn = bindings()?.[name];
  if (typeof fn !== 'function') {
    throw new ApiError({ code: 'UNSUPPORTED', message: t('api.unsupported', { name }) });
  }
  try {
    const r = await fn(...args);
    return (r ?? null) as T;
  } catch (e) {
    throw normalizeBindingError(e);
  }
}

const enc = encodeURIComponent;

// ---------------------------------------------------------------------------
// Operations

export const status = (): Promise<Status> => http('GET', '/api/status/');

export const stats = (): Promise<Stats> => http('GET', '/api/files/stats');

export const search = (req: SearchRequest, opt: HttpOptions = {}): Promise<SearchResponse> => http('POST', '/api/search/', req, opt);

/** An indexed file's text with the query's words marked. */
export const preview = (id: number, query: string, opt: HttpOptions = {}): Promise<Preview> => http('GET', `/api/files/${enc(String(id))}/preview?query=${enc(query)}`, undefined, opt);

/** The desktop's applications for an indexed file's type. */
export const fileApps = (id: number): Promise<{ apps: { id: string; name: string }[] }> => http('GET', `/api/files/${enc(String(id))}/apps`);

/** Opens an indexed file with one of the applications fileApps lists. */
export const openWith = (id: number, app: string): Promise<null> => http('POST', `/api/files/${enc(String(id))}/open-with`, { app }).then(nothing);

/** An indexed image as a URL the page can show (a data: or blob: URL). */
export async function imageURL(id: number): Promise<string> {
  const res = await request('GET', `/api/files/${enc(String(id))}/image`, undefined, {}, 'image/*');
  if (!res.ok) throw await refusal(res);
  return URL.createObjectURL(await res.blob());
}

/** Whether the server draws a small picture of a file of this type (GET /api/files/{id}/thumbnail). */
export const hasThumbnail = (mime: string): boolean =>
  mime === 'application/pdf' || mime.startsWith('video/') || (mime.startsWith('image/') && mime !== 'image/svg+xml');

/** A small picture of an indexed image, PDF or video, px on its long side, as a blob: URL the caller revokes. */
export async function thumbnailURL(id: number, px: number): Promise<string> {
  const res = await request('GET', `/api/files/${enc(String(id))}/thumbnail?size=${px}`, undefined, {}, 'image/png');
  if (!res.ok) throw await refusal(res);
  return URL.createObjectURL(await res.blob());
}

export const file = (id: number): Promise<FileRecord> => http('GET', `/api/files/${enc(String(id))}`);

/** Opens an indexed file with its default application, at page (from 1) where the application can be told one. */
export const openFile = (id: number, page?: number): Promise<null> =>
  http('POST', `/api/files/${enc(String(id))}/open`, page && page > 1 ? { page } : undefined).then(nothing);

export const revealFile = (id: number): Promise<null> => http('POST', `/api/files/${enc(String(id))}/reveal`).then(nothing);

export const folders = (): Promise<FolderList> => data(http('GET', '/api/watched-directories'));

export const watch = (req: WatchRequest): Promise<WatchResult> => data(http('POST', '/api/watch/directory', req));

export const unwatch = (id: number): Promise<null> => http('DELETE', `/api/watch/jobs/${enc(String(id))}`).then(nothing);

export const problems = (id: number, limit = 200): Promise<ProblemList> => data(http('GET', `/api/watched-directories/${enc(String(id))}/problems?limit=${limit}`));

export const queueStatus = (): Promise<QueueStatus> => http('GET', '/api/queue/status');

export const pauseQueue = (): Promise<QueueStatus> => http('POST', '/api/queue/pause');

export const resumeQueue = (): Promise<QueueStatus> => http('POST', '/api/queue/resume');

export const queueItems = (offset = 0, limit = 100): Promise<QueueItems> => http('GET', `/api/queue/items?offset=${offset}&limit=${limit}`);

export const removeQueueItem = (id: string): Promise<null> => http('DELETE', `/api/queue/items/${enc(id)}`).then(nothing);

export const settings = (): Promise<Settings> => http('GET', '/api/settings/');

export const settingsDefaults = (): Promise<Settings> => http('GET', '/api/settings/defaults');

export const updateSettings = (patch: SettingsPatch): Promise<Settings> => http('PUT', '/api/settings/', patch);

export const filters = (): Promise<FilterConfig> => http('GET', '/api/filters/config');

export const filterDefaults = (): Promise<FilterDefaults> => http('GET', '/api/filters/defaults');

export const updateFilters = (update: FilterUpdate): Promise<FilterChange> => http('PUT', '/api/filters/config', update);

export const addPattern = (req: PatternRequest): Promise<FilterChange> => http('POST', '/api/filters/pattern', req);

export const removePattern = (req: PatternRequest): Promise<FilterChange> => http('DELETE', '/api/filters/pattern', req);

export const resetFilters = (): Promise<FilterChange> => http('POST', '/api/filters/reset');

export const applyFilters = (): Promise<FilterApplied> => http('POST', '/api/filters/apply');

/** The saved searches, by name. */
export const savedSearches = (): Promise<SavedSearch[]> => http<SavedSearchList>('GET', '/api/saved-searches').then((r) => r.saved_searches ?? []);

export const savedSearch = (id: number): Promise<SavedSearch> => http('GET', `/api/saved-searches/${enc(String(id))}`);

/** Keeps a search under a name (409 NAME_TAKEN when another has it in any case). */
export const saveSearch = (req: SavedSearchRequest): Promise<SavedSearch> => http('POST', '/api/saved-searches', req);

export const updateSavedSearch = (id: number, change: SavedSearchChange): Promise<SavedSearch> => http('PUT', `/api/saved-searches/${enc(String(id))}`, change);

export const deleteSavedSearch = (id: number): Promise<null> => http('DELETE', `/api/saved-searches/${enc(String(id))}`).then(nothing);

/** Runs a saved search: the answer of POST /api/search/ for its request. */
export const runSavedSearch = (id: number, page: { offset?: number; limit?: number } = {}, opt: HttpOptions = {}): Promise<SearchResponse> =>
  http('POST', `/api/saved-searches/${enc(String(id))}/run`, page, opt);

// ---------------------------------------------------------------------------
// Desktop integration (the window only: a browser has no such routes)

export const loginItem = (): Promise<LoginItem> => bind('LoginItem');
export const setLoginItem = (on: boolean): Promise<LoginItem> => bind('SetLoginItem', on);
export const hotkeySetups = async (): Promise<HotkeySetup[]> => (await bind<HotkeySetup[]>('HotkeySetups')) ?? [];

/** Whether a native folder dialog exists (the desktop window only). */
export const canPickFolder = (): boolean => isDesktop();

/** The native folder dialog: an absolute path, or "" when cancelled (or in a browser). */
export const pickFolder = async (): Promise<string> => (isDesktop() ? ((await bind<string>('PickFolder')) ?? '') : '');

/** Hides the desktop window (quick search); nothing in a browser. */
export const hideWindow = async (): Promise<void> => {
  if (isDesktop()) await bind('HideWindow');
};

// ---------------------------------------------------------------------------
// Live updates

export type ConnectionState = 'connecting' | 'open' | 'closed';
export type Unsubscribe = () => void;

/**
 * Calls onEvent for every event: first the current state (queue.status and
 * one folder.status per folder), then each change. Returns unsubscribe.
 */
export function subscribe(
  onEvent: (ev: TroveEvent) => void,
  onState: (s: ConnectionState) => void = () => {},
): Unsubscribe {
  return isDesktop() ? subscribeDesktop(onEvent, onState) : subscribeHttp(onEvent, onState);
}

function subscribeDesktop(onEvent: (ev: TroveEvent) => void, onState: (s: ConnectionState) => void): Unsubscribe {
  const rt = window.runtime;
  if (!rt) {
    onState('closed');
    return () => {};
  }
  // Live events wait until the snapshot is delivered, so a late snapshot
  // cannot overwrite newer state.
  let buffer: TroveEvent[] | null = [];
  let stopped = false;
  const deliver = (ev: TroveEvent) => {
    if (!stopped) onEvent(ev);
  };
  const off = rt.EventsOn('trove:event', (ev: TroveEvent) => {
    if (buffer) buffer.push(ev);
    else deliver(ev);
  });
  onState('connecting');
  const flush = () => {
    const b = buffer ?? [];
    buffer = null;
    b.forEach(deliver);
  };
  bind<TroveEvent[]>('Snapshot')
    .then((snap) => {
      (snap ?? []).forEach(deliver);
      flush();
      if (!stopped) onState('open');
    })
    .catch(() => {
      flush();
      if (!stopped) onState('open');
    });
  return () => {
    stopped = true;
    if (typeof off === 'function') off();
    else rt.EventsOff?.('trove:event');
  };
}

function subscribeHttp(onEvent: (ev: TroveEvent) => void, onState: (s: ConnectionState) => void): Unsubscribe {
  let es: EventSource | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = 1000;

  const handle = (m: MessageEvent) => {
    try {
      onEvent(JSON.parse(m.data) as TroveEvent);
    } catch {
      // a malformed line is dropped
    }
  };

  const open = () => {
    if (stopped) return;
    const token = getToken();
    const url = '/api/updates' + (token ? `?token=${enc(token)}` : '');
    es = new EventSource(url);
    onState('connecting');
    es.onopen = () => {
      delay = 1000;
      onState('open');
    };
    for (const t of EVENT_TYPES) es.addEventListener(t, handle as EventListener);
    es.onerror = () => {
      if (stopped || !es) return;
      if (es.readyState !== EventSource.CLOSED) {
        onState('connecting'); // EventSource retries by itself
        return;
      }
      // Closed for good (a refused request, such as a 401): find out why
      // through a plain request, which asks for a token when one is needed,
      // then open again.
      es.close();
      es = null;
      onState('closed');
      timer = setTimeout(() => {
        status()
          .catch(() => undefined)
          .finally(open);
      }, delay);
      delay = Math.min(delay * 2, 30_000);
    };
  };

  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    es?.close();
    es = null;
  };
}

/** Route requests from the desktop shell ("/quick", "/"); nothing in a browser. */
export function onNavigate(cb: (route: string) => void): Unsubscribe {
  const rt = typeof window === 'undefined' ? undefined : window.runtime;
  if (!isDesktop() || !rt) return () => {};
  const off = rt.EventsOn('trove:navigate', (route: unknown) => {
    if (typeof route === 'string') cb(route);
  });
  return () => {
    if (typeof off === 'function') off();
    else rt.EventsOff?.('trove:navigate');
  };
}
