import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import * as api from './api';
import { ApiError, normalizeBindingError, normalizeHttpError } from './api';

// ---------------------------------------------------------------------------
// helpers

type Call = { url: string; init: RequestInit };

function jsonResponse(status: number, body: unknown): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A fetch mock answering from a list of responses (or a function), recording calls. */
function mockFetch(answer: (call: Call, n: number) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(url), init };
    calls.push(call);
    return answer(call, calls.length - 1);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

const headers = (c: Call) => (c.init.headers ?? {}) as Record<string, string>;

beforeEach(() => {
  localStorage.clear();
  api.resetTokenState();
  api.setTokenPrompt(async () => null);
  delete (window as any).go;
  delete (window as any).runtime;
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// ---------------------------------------------------------------------------

describe('HTTP transport', () => {
  it('is chosen without the desktop bindings', () => {
    expect(api.isDesktop()).toBe(false);
    expect(api.canPickFolder()).toBe(false);
  });

  it('GETs the status with relative URLs and no body', async () => {
    const calls = mockFetch(() => jsonResponse(200, { jobs: 2, version: 'v1', uptime_seconds: 5 }));
    const st = await api.status();
    expect(st).toEqual({ jobs: 2, version: 'v1', uptime_seconds: 5 });
    expect(calls[0].url).toBe('/api/status/');
    expect(calls[0].init.method).toBe('GET');
    expect(calls[0].init.body).toBeUndefined();
    expect(headers(calls[0])['Content-Type']).toBeUndefined();
  });

  it('POSTs a search as JSON with Content-Type', async () => {
    const answer = { results: [], total: 0, query: 'roof' };
    const calls = mockFetch(() => jsonResponse(200, answer));
    const req = { query: 'roof', limit: 5, filters: { extensions: ['md'] } };
    expect(await api.search(req)).toEqual(answer);
    expect(calls[0].url).toBe('/api/search/');
    expect(calls[0].init.method).toBe('POST');
    expect(headers(calls[0])['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(calls[0].init.body))).toEqual(req);
  });

  it('unwraps the data of the status-family envelopes', async () => {
    const folders = { total_directories: 1, directories: [{ id: 1, path: '/a' }] };
    const calls = mockFetch((c) => {
      if (c.url === '/api/watched-directories') return jsonResponse(200, { status: 'success', data: folders });
      if (c.url === '/api/watch/directory')
        return jsonResponse(200, { status: 'success', data: { directory: '/a', files_found: 3, indexing_started: true, job_id: 4 } });
      if (c.url.startsWith('/api/watched-directories/1/problems'))
        return jsonResponse(200, { status: 'success', data: { total: 0, problems: [] } });
      return jsonResponse(404, {});
    });
    expect(await api.folders()).toEqual(folders);
    expect((await api.watch({ path: '/a' })).job_id).toBe(4);
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ path: '/a' });
    expect(await api.problems(1, 50)).toEqual({ total: 0, problems: [] });
    expect(calls[2].url).toBe('/api/watched-directories/1/problems?limit=50');
  });

  it('answers null for the bodiless answers (unwatch, open, reveal, remove item)', async () => {
    const calls = mockFetch(() => jsonResponse(200, { success: true, message: 'ok', path: '/x' }));
    expect(await api.unwatch(3)).toBeNull();
    expect(await api.openFile(7)).toBeNull();
    expect(await api.revealFile(7)).toBeNull();
    expect(await api.removeQueueItem('a/b')).toBeNull();
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'DELETE /api/watch/jobs/3',
      'POST /api/files/7/open',
      'POST /api/files/7/reveal',
      'DELETE /api/queue/items/a%2Fb',
    ]);
  });

  it('opens at a page with a body, and without one at the first page', async () => {
    const calls = mockFetch(() => jsonResponse(200, { path: '/x.pdf' }));
    await api.openFile(7, 12);
    await api.openFile(7);
    await api.openFile(7, 1);
    expect(calls.map((c) => c.url)).toEqual(['/api/files/7/open', '/api/files/7/open', '/api/files/7/open']);
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ page: 12 });
    expect(calls[1].init.body).toBeUndefined();
    expect(calls[2].init.body).toBeUndefined();
  });

  it('sends the bodiless POSTs without a body and the pattern DELETE with one', async () => {
    const calls = mockFetch(() => jsonResponse(200, { success: true, message: '', removed_count: 0 }));
    await api.pauseQueue();
    await api.resumeQueue();
    await api.applyFilters();
    await api.resetFilters();
    await api.removePattern({ pattern: '*.bak', pattern_type: 'blacklist_exclude' });
    for (const c of calls.slice(0, 4)) {
      expect(c.init.body).toBeUndefined();
      expect(headers(c)['Content-Type']).toBeUndefined();
    }
    expect(calls.slice(0, 4).map((c) => c.url)).toEqual([
      '/api/queue/pause',
      '/api/queue/resume',
      '/api/filters/apply',
      '/api/filters/reset',
    ]);
    expect(calls[4].init.method).toBe('DELETE');
    expect(calls[4].url).toBe('/api/filters/pattern');
    expect(headers(calls[4])['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(calls[4].init.body))).toEqual({ pattern: '*.bak', pattern_type: 'blacklist_exclude' });
  });

  it('pages the queue and PUTs settings with dotted keys', async () => {
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/queue/items') ? jsonResponse(200, { items: [], total: 0, offset: 20 }) : jsonResponse(200, { queue: {} }),
    );
    expect((await api.queueItems(20, 10)).offset).toBe(20);
    expect(calls[0].url).toBe('/api/queue/items?offset=20&limit=10');
    await api.updateSettings({ 'queue.max_concurrency': 4 });
    expect(calls[1].init.method).toBe('PUT');
    expect(calls[1].url).toBe('/api/settings/');
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ 'queue.max_concurrency': 4 });
  });

  it('cannot pick folders or hide a window in a browser', async () => {
    const calls = mockFetch(() => jsonResponse(200, {}));
    expect(await api.pickFolder()).toBe('');
    await api.hideWindow();
    expect(calls).toHaveLength(0);
  });
});

describe('HTTP error normalisation', () => {
  it('reads the status family, with the field', async () => {
    mockFetch(() =>
      jsonResponse(400, {
        status: 'error',
        error: {
          code: 'OUT_OF_RANGE',
          field: 'queue.max_concurrency',
          message: 'queue.max_concurrency: 0 is out of range (allowed: 1 to 64)',
        },
      }),
    );
    const err = await api.updateSettings({ 'queue.max_concurrency': 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      code: 'OUT_OF_RANGE',
      field: 'queue.max_concurrency',
      message: 'queue.max_concurrency: 0 is out of range (allowed: 1 to 64)',
    });
  });

  it('reads the success family', async () => {
    mockFetch(() => jsonResponse(404, { success: false, code: 'PATTERN_NOT_FOUND', message: 'pattern "*.bak" is not among the exclude patterns' }));
    const err = await api.removePattern({ pattern: '*.bak' }).catch((e) => e);
    expect(err).toMatchObject({ status: 404, code: 'PATTERN_NOT_FOUND', message: 'pattern "*.bak" is not among the exclude patterns' });
    expect(err.field).toBeUndefined();
  });

  it('reads the bare family, taking the code from the status', async () => {
    mockFetch(() => jsonResponse(404, { error: 'file 42 not found' }));
    const err = await api.file(42).catch((e) => e);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'file 42 not found' });
  });

  it('keeps the text of a body that is not JSON', () => {
    const e = normalizeHttpError(502, undefined, 'Bad gateway\n');
    expect(e).toMatchObject({ status: 502, code: 'HTTP_502', message: 'Bad gateway' });
    expect(normalizeHttpError(500, undefined, '').message).toBe('Request failed (HTTP 500)');
  });

  it('reports a network failure as NETWORK without a status', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const err = await api.status().catch((e) => e);
    expect(err).toMatchObject({ code: 'NETWORK' });
    expect(err.status).toBeUndefined();
  });

  it('passes an abort through untouched', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new DOMException('aborted', 'AbortError'))));
    const err = await api.search({ query: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(DOMException);
    expect(err.name).toBe('AbortError');
  });
});

describe('the 401 token flow', () => {
  const unauthorized = () =>
    jsonResponse(401, { status: 'error', error: { code: 'UNAUTHORIZED', message: 'missing or wrong token' } });

  it('asks once, keeps the token and retries with it', async () => {
    const prompt = vi.fn(async () => 's3cret');
    api.setTokenPrompt(prompt);
    const calls = mockFetch((c) =>
      headers(c).Authorization === 'Bearer s3cret' ? jsonResponse(200, { jobs: 0, version: 'v', uptime_seconds: 1 }) : unauthorized(),
    );
    expect((await api.status()).version).toBe('v');
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(api.TOKEN_KEY)).toBe('s3cret');
    expect(calls).toHaveLength(2);
    // Later requests send it from the start.
    await api.status();
    expect(headers(calls[2]).Authorization).toBe('Bearer s3cret');
    expect(prompt).toHaveBeenCalledTimes(1);
  });

  it('asks once for requests that fail together', async () => {
    let release!: (v: string) => void;
    const prompt = vi.fn(() => new Promise<string>((r) => (release = r)));
    api.setTokenPrompt(prompt);
    mockFetch((c) => (headers(c).Authorization === 'Bearer t' ? jsonResponse(200, {}) : unauthorized()));
    const all = Promise.all([api.status(), api.stats(), api.queueStatus()]);
    await vi.waitFor(() => expect(prompt).toHaveBeenCalled());
    release('t');
    await all;
    expect(prompt).toHaveBeenCalledTimes(1);
  });

  it('does not ask again after the person declined, until asked to', async () => {
    const prompt = vi.fn(async () => null);
    api.setTokenPrompt(prompt);
    mockFetch(() => unauthorized());
    const err = await api.status().catch((e) => e);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await api.status().catch(() => undefined);
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(api.tokenDeclined()).toBe(true);
    await api.requestToken();
    expect(prompt).toHaveBeenCalledTimes(2);
  });

  it('fetches an image with the token too, and answers a refusal in the status shape', async () => {
    api.setTokenPrompt(async () => 'img');
    const urls: string[] = [];
    vi.stubGlobal(
      'URL',
      class extends URL {
        static createObjectURL(b: Blob) {
          urls.push(b.type);
          return 'blob:x';
        }
      },
    );
    const calls = mockFetch((c) =>
      c.url.endsWith('/1/image') && headers(c).Authorization === 'Bearer img'
        ? new Response('png', { status: 200, headers: { 'Content-Type': 'image/png' } })
        : c.url.endsWith('/2/image')
          ? jsonResponse(404, { status: 'error', error: { code: 'NOT_FOUND', message: 'no such file' } })
          : unauthorized(),
    );
    expect(await api.imageURL(1)).toBe('blob:x');
    expect(urls).toEqual(['image/png']);
    expect(calls.map((c) => c.url)).toEqual(['/api/files/1/image', '/api/files/1/image']);
    expect(await api.imageURL(2).catch((e) => e)).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'no such file' });
  });

  it('forgets a stored token the server refuses', async () => {
    localStorage.setItem(api.TOKEN_KEY, 'old');
    api.setTokenPrompt(async () => 'still-wrong');
    mockFetch(() => unauthorized());
    const err = await api.status().catch((e) => e);
    expect(err.status).toBe(401);
    expect(localStorage.getItem(api.TOKEN_KEY)).toBeNull();
  });
});

// ---------------------------------------------------------------------------

function installDesktop(methods: Record<string, (...a: any[]) => any>) {
  const handlers = new Map<string, Set<(...a: any[]) => void>>();
  const runtime = {
    EventsOn: vi.fn((name: string, cb: (...a: any[]) => void) => {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)!.add(cb);
      return () => handlers.get(name)!.delete(cb);
    }),
    EventsOff: vi.fn(),
  };
  const App: Record<string, any> = {};
  for (const [k, f] of Object.entries(methods)) App[k] = vi.fn(async (...a: any[]) => f(...a));
  (window as any).go = { app: { App } };
  (window as any).runtime = runtime;
  const emit = (name: string, data: unknown) => handlers.get(name)?.forEach((h) => h(data));
  return { App, runtime, emit, handlers };
}

describe('desktop transport', () => {
  it('fetches the API in the window too, and binds only what is the desktop\'s own', async () => {
    const answer = { results: [], total: 0, query: 'roof' };
    const calls = mockFetch(() => jsonResponse(200, answer));
    const { App } = installDesktop({
      PickFolder: () => '/home/me/Notes',
      HideWindow: () => null,
      LoginItem: () => ({ supported: true, enabled: false, path: '/a', command: 'trove-desktop --hidden' }),
      SetLoginItem: (on) => ({ supported: true, enabled: on, path: '/a', command: 'trove-desktop --hidden' }),
      HotkeySetups: () => [{ desktop: 'GNOME', key: '<Control><Alt>space', commands: 'gsettings ...', note: '' }],
    });
    expect(api.isDesktop()).toBe(true);
    expect(await api.search({ query: 'roof' })).toEqual(answer);
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual(['POST /api/search/']);
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ query: 'roof' });
    expect((await api.loginItem()).enabled).toBe(false);
    expect((await api.setLoginItem(true)).enabled).toBe(true);
    expect(App.SetLoginItem).toHaveBeenCalledWith(true);
    expect((await api.hotkeySetups())[0].desktop).toBe('GNOME');
    expect(api.canPickFolder()).toBe(true);
    expect(await api.pickFolder()).toBe('/home/me/Notes');
    await api.hideWindow();
    expect(App.HideWindow).toHaveBeenCalled();
    expect(calls).toHaveLength(1);
  });

  it('parses JSON binding errors into ApiError', async () => {
    installDesktop({
      SetLoginItem: () => {
        throw JSON.stringify({ code: 'NOT_SUPPORTED', message: 'this desktop has no autostart folder', field: 'enabled' });
      },
      PickFolder: () => {
        throw new Error('{"code":"INTERNAL","message":"the dialog failed"}');
      },
      LoginItem: () => {
        throw 'no login item';
      },
    });
    await expect(api.setLoginItem(true)).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
      field: 'enabled',
      message: 'this desktop has no autostart folder',
    });
    await expect(api.pickFolder()).rejects.toMatchObject({ code: 'INTERNAL', message: 'the dialog failed' });
    const raw = await api.loginItem().catch((e) => e);
    expect(raw).toBeInstanceOf(ApiError);
    expect(raw).toMatchObject({ code: 'ERROR', message: 'no login item' });
  });

  it('normalises odd binding rejections', () => {
    expect(normalizeBindingError({ code: 'X', message: 'y', field: 'f' })).toMatchObject({ code: 'X', message: 'y', field: 'f' });
    expect(normalizeBindingError('{"code":"NOT_FOUND","message":"gone","status":404}')).toMatchObject({ status: 404 });
    expect(normalizeBindingError('[1,2]')).toMatchObject({ code: 'ERROR', message: '[1,2]' });
    expect(normalizeBindingError('')).toMatchObject({ code: 'ERROR' });
  });

  it('reports a missing binding as UNSUPPORTED', async () => {
    installDesktop({});
    await expect(api.loginItem()).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});

// ---------------------------------------------------------------------------

class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static all: FakeEventSource[] = [];
  url: string;
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, ((m: MessageEvent) => void)[]>();
  closed = false;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.all.push(this);
  }
  addEventListener(t: string, cb: (m: MessageEvent) => void) {
    this.listeners.set(t, [...(this.listeners.get(t) ?? []), cb]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown) {
    const m = new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) });
    this.listeners.get(type)?.forEach((cb) => cb(m));
  }
}

describe('live updates', () => {
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });

  it('uses EventSource on /api/updates in a browser, for every kind', () => {
    const got: api.TroveEvent[] = [];
    const states: string[] = [];
    const off = api.subscribe((e) => got.push(e), (s) => states.push(s));
    const es = FakeEventSource.all[0];
    expect(es.url).toBe('/api/updates');
    for (const k of api.EVENT_TYPES) expect(es.listeners.has(k)).toBe(true);
    es.onopen?.();
    const ev = { id: 3, type: 'file.indexed', time: 't', data: { id: 1, path: '/a' } };
    es.emit('file.indexed', ev);
    es.emit('queue.status', 'not json');
    expect(got).toEqual([ev]);
    expect(states).toEqual(['connecting', 'open']);
    off();
    expect(es.closed).toBe(true);
  });

  it('passes the token as ?token= and reopens after a refused stream', async () => {
    vi.useFakeTimers();
    localStorage.setItem(api.TOKEN_KEY, 'a b');
    mockFetch(() => jsonResponse(200, { jobs: 0, version: 'v', uptime_seconds: 0 }));
    const states: string[] = [];
    const off = api.subscribe(() => {}, (s) => states.push(s));
    const es = FakeEventSource.all[0];
    expect(es.url).toBe('/api/updates?token=a%20b');
    es.readyState = FakeEventSource.CLOSED;
    es.onerror?.();
    expect(states.at(-1)).toBe('closed');
    await vi.advanceTimersByTimeAsync(1500);
    expect(FakeEventSource.all).toHaveLength(2);
    off();
    expect(FakeEventSource.all[1].closed).toBe(true);
  });

  it('lets EventSource retry by itself while it is connecting', () => {
    const states: string[] = [];
    api.subscribe(() => {}, (s) => states.push(s));
    const es = FakeEventSource.all[0];
    es.readyState = FakeEventSource.CONNECTING;
    es.onerror?.();
    expect(FakeEventSource.all).toHaveLength(1);
    expect(states.at(-1)).toBe('connecting');
  });

  it('uses the Wails events in the desktop, snapshot first', async () => {
    let giveSnapshot!: (v: unknown) => void;
    const snapshot = [
      { id: 0, type: 'queue.status', time: 't', data: { total: 1 } },
      { id: 0, type: 'folder.status', time: 't', data: { id: 1, status: 'indexing' } },
    ];
    const { runtime, emit, handlers } = installDesktop({ Snapshot: () => new Promise((r) => (giveSnapshot = r)) });
    const got: api.TroveEvent[] = [];
    const states: string[] = [];
    const off = api.subscribe((e) => got.push(e), (s) => states.push(s));
    expect(runtime.EventsOn).toHaveBeenCalledWith('trove:event', expect.any(Function));
    expect(FakeEventSource.all).toHaveLength(0);
    const live = { id: 7, type: 'folder.status', time: 't', data: { id: 1, status: 'watching' } };
    emit('trove:event', live); // arrives before the snapshot: held back
    expect(got).toEqual([]);
    giveSnapshot(snapshot);
    await vi.waitFor(() => expect(got).toHaveLength(3));
    expect(got).toEqual([...snapshot, live]);
    expect(states).toEqual(['connecting', 'open']);
    emit('trove:event', { id: 8, type: 'file.removed', time: 't', data: { id: 2 } });
    expect(got).toHaveLength(4);
    off();
    expect(handlers.get('trove:event')!.size).toBe(0);
  });

  it('routes trove:navigate in the desktop only', () => {
    const seen: string[] = [];
    expect(api.onNavigate((r) => seen.push(r))).toBeTypeOf('function');
    const { emit } = installDesktop({});
    const off = api.onNavigate((r) => seen.push(r));
    emit('trove:navigate', '/quick');
    emit('trove:navigate', 42);
    off();
    emit('trove:navigate', '/');
    expect(seen).toEqual(['/quick']);
  });
});
