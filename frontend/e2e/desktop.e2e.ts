// The UI as the desktop window runs it: window.go.app.App and
// window.runtime exist. The window fetches the API like a browser (in the
// app its own origin hands the requests to the API in process; here the
// page is at the server's address), so the stand-ins are only the
// desktop's own bindings, and the events re-emitted as Wails events. The
// shell's own bindings and its in-process transport are tested with the
// shell.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, shot } from './browser';
import { startServer, type Server } from './server';
import { writeFixtures } from './fixtures';
import { literals } from './literals';

const T = 20_000;
let browser: Browser;
let server: Server;
let page: Page;
let folder: string;

/** Runs in the page before the app: the stand-in bindings, and a record of
 * every binding called and API request made ("POST /api/search/"). */
function installBindings(pickPath: string) {
  const calls: string[] = [];
  const handlers: Record<string, ((d: unknown) => void)[]> = {};
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = new URL(String(input), location.href).pathname;
    calls.push(`${method} ${path}`);
    // Opening a file would start an application on this machine.
    if (method === 'POST' && /^\/api\/files\/\d+\/open$/.test(path)) {
      return new Response('{"success":true,"message":"opened"}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    return realFetch(input, init);
  };
  const App: Record<string, (...a: any[]) => Promise<any>> = {
    PickFolder: async () => pickPath,
    Snapshot: async () => [],
    HideWindow: async () => null,
    LoginItem: async () => ({ supported: true, enabled: true, path: '/home/me/.config/autostart/dev.trove.Trove.desktop', command: 'trove-desktop --hidden' }),
    HotkeySetups: async () => [{ desktop: 'GNOME', key: 'Super+Space', commands: 'gsettings set org.gnome.settings-daemon.plugins.media-keys …', note: 'GNOME 3.36 or newer.' }],
  };
  const recorded: typeof App = {};
  for (const [k, f] of Object.entries(App)) {
    recorded[k] = (...a: any[]) => {
      calls.push(k);
      return f(...a);
    };
  }
  // The shell's events: the server's stream, re-emitted as "trove:event".
  const es = new EventSource('/api/updates');
  const kinds = ['file.indexed', 'file.failed', 'file.removed', 'file.moved', 'folder.status', 'folder.removed', 'scan.progress', 'queue.status', 'settings.changed', 'filters.changed', 'resync'];
  const emit = (name: string, d: unknown) => (handlers[name] ?? []).forEach((h) => h(d));
  for (const k of kinds) es.addEventListener(k, (m) => emit('trove:event', JSON.parse((m as MessageEvent).data)));
  (window as any).go = { app: { App: recorded } };
  (window as any).runtime = {
    EventsOn(name: string, cb: (d: unknown) => void) {
      (handlers[name] ??= []).push(cb);
      return () => (handlers[name] = handlers[name].filter((h) => h !== cb));
    },
    EventsOff(name: string) {
      delete handlers[name];
    },
  };
  (window as any).__calls = calls;
  (window as any).__emit = emit;
}

beforeAll(async () => {
  server = await startServer();
  folder = join(server.dir, 'Projects');
  mkdirSync(folder, { recursive: true });
  writeFixtures(folder);
  browser = await launch();
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1100, height: 760 } });
  await ctx.addInitScript(installBindings, folder);
  page = await ctx.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const calls = () => page.evaluate(() => (window as any).__calls as string[]);

describe('the UI in the desktop window', () => {
  it('adds a folder with the native picker through the bindings', async () => {
    await page.goto('/');
    await page.waitForFunction(() => (window as any).__calls?.includes('Snapshot'));
    await page.getByRole('link', { name: /Folders/ }).click();
    // Hash routing inside the desktop window.
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/folders');
    await page.getByRole('button', { name: 'Choose folder…' }).click();
    const row = page.locator(`[data-testid="folder"][data-path="${folder}"]`);
    await expect.poll(() => row.getByTestId('folder-status').getAttribute('data-status'), { timeout: T }).toMatch(/^(watching|complete)$/);
    const c = await calls();
    expect(c).toEqual(
      expect.arrayContaining(['PickFolder', 'POST /api/watch/directory', 'GET /api/watched-directories', 'GET /api/files/stats', 'GET /api/queue/status']),
    );

    // The API's refusal shows inline.
    await page.getByLabel('Folder path').fill(folder);
    await page.getByRole('button', { name: 'Add folder' }).click();
    await expect.poll(() => page.getByTestId('folder-error').textContent(), { timeout: T }).toMatch(/already watched/);
    await shot(page, 'desktop-folders');
  });

  it('searches through the API and follows trove:navigate to the quick search', async () => {
    await page.getByRole('link', { name: /Search/ }).click();
    await page.getByRole('combobox', { name: 'Search your files' }).fill('irrigation');
    await expect.poll(() => page.getByTestId('result').first().getByTestId('result-title').textContent(), { timeout: T }).toMatch(/irrigation/i);
    expect(await calls()).toContain('POST /api/search/');

    await page.evaluate(() => (window as any).__emit('trove:navigate', '/quick'));
    const box = page.getByRole('combobox', { name: 'Quick search' });
    await box.waitFor({ timeout: T });
    await box.fill('lisbon');
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(0);
    await box.press('Enter');
    // Opening a file hides the quick window; so does Esc.
    await expect.poll(async () => (await calls()).filter((c) => c === 'HideWindow').length, { timeout: T }).toBe(1);
    expect((await calls()).some((c) => /^POST \/api\/files\/\d+\/open$/.test(c))).toBe(true);
    await box.fill('bread');
    await box.press('Escape');
    await expect.poll(async () => (await calls()).filter((c) => c === 'HideWindow').length, { timeout: T }).toBe(2);
    expect(await box.inputValue()).toBe('');

    await page.evaluate(() => (window as any).__emit('trove:navigate', '/'));
    await page.getByRole('combobox', { name: 'Search your files' }).waitFor({ timeout: T });
  });

  it("opens what the desktop sends: a desktop search's query in the window, quick search in a folder", async () => {
    // A desktop search's "more results".
    await page.evaluate(() => (window as any).__emit('trove:navigate', '/?q=lisbon'));
    const main = page.getByRole('combobox', { name: 'Search your files' });
    await expect.poll(() => main.inputValue(), { timeout: T }).toBe('lisbon');
    await expect.poll(() => page.getByTestId('result').first().getAttribute('data-path'), { timeout: T }).toBe(join(folder, 'Travel/lisbon-itinerary.md'));
    expect(await page.evaluate(() => location.hash)).toBe('#/');

    // A file manager's "Search in this folder".
    const work = join(folder, 'Work');
    await page.evaluate((d) => (window as any).__emit('trove:navigate', '/quick?dir=' + encodeURIComponent(d)), work);
    const scope = page.getByTestId('quick-scope');
    await expect.poll(() => scope.textContent(), { timeout: T }).toContain(work);
    const paths = () => page.getByTestId('result').evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
    await page.getByRole('combobox', { name: 'Quick search' }).fill('budget');
    await expect.poll(paths, { timeout: T }).toContain(join(work, 'budget-plan-2026.md'));
    expect((await paths()).filter((p) => !p.startsWith(work + '/'))).toEqual([]);
    expect((await calls()).filter((c) => c === 'POST /api/search/').length).toBeGreaterThan(0);

    // The tray's quick search again: everywhere.
    await page.evaluate(() => (window as any).__emit('trove:navigate', '/quick'));
    await expect.poll(() => scope.count(), { timeout: T }).toBe(0);
    await expect.poll(paths, { timeout: T }).toContain(join(folder, 'Notes/meeting-notes-2026-03-04.md'));
    await page.evaluate(() => (window as any).__emit('trove:navigate', '/'));
    await main.waitFor({ timeout: T });
  });

  it('keeps the route when in-page links are followed (the hash is the route here)', async () => {
    await page.getByRole('link', { name: /Settings/ }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Filters' }).click();
    await page.getByTestId('filter-editor').waitFor({ timeout: T });
    expect(await page.evaluate(() => location.hash)).toBe('#/settings');
    expect(await page.getByRole('heading', { name: 'Settings', level: 1 }).count()).toBe(1);
    expect(await calls()).toEqual(
      expect.arrayContaining(['GET /api/settings/', 'GET /api/settings/defaults', 'GET /api/filters/config', 'GET /api/filters/defaults']),
    );
  });

  it('speaks the pseudo-locale in its desktop-only parts too (start at login, hotkeys, integrations, a folder scope)', async () => {
    const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1100, height: 760 }, locale: 'en-XA' });
    try {
      await ctx.addInitScript(installBindings, folder);
      const p = await ctx.newPage();
      await p.goto('/#/settings');
      await p.getByTestId('hotkey-commands').waitFor({ timeout: T });
      await p.getByTestId('integrations').waitFor({ timeout: T });
      expect(await p.evaluate(() => document.documentElement.lang)).toBe('en-XA');
      expect(await literals(p)).toEqual([]);
      await p.evaluate((d) => (window as any).__emit('trove:navigate', '/quick?dir=' + encodeURIComponent(d)), join(folder, 'Work'));
      await p.getByTestId('quick-scope').waitFor({ timeout: T });
      expect(await literals(p)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
