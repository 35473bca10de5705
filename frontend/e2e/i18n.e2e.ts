// The UI in other languages, in Debian's Chromium against a real Trove
// server of its own:
// - in the pseudo-locale (en-XA: every catalogue message accented and in
//   brackets), every screen, menu and state is walked and no text node or
//   attribute (placeholder, title, aria-label, alt) may hold a letter that
//   did not come from the catalogue. Data is exempt by markup: values put
//   into messages (bidi-isolated in this locale), elements marked
//   translate="no" (names, paths, snippets, code) and elements in another
//   language (lang="en": what the server says in its own words);
// - right-to-left file names and text show right to left (dir="auto");
// - the language follows the browser, and ui.language overrides it.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launch, shot } from './browser';
import { startServer, watchAndIndex, type Server } from './server';
import { writeFixtures } from './fixtures';
import { literals } from './literals';

const T = 20_000;
let server: Server;
let browser: Browser;
let root: string;
let fileCount: number;

const rtl: [string, string][] = [
  ['rtl/تقرير الميزانية.txt', 'تقرير الميزانية السنوية للمكتب: الإيجار والرواتب والسفر.'],
  ['rtl/דוח תקציב.txt', 'דוח התקציב השנתי של המשרד: שכירות, משכורות ונסיעות.'],
];

function writeCorpus(dir: string): number {
  let n = writeFixtures(dir, { pipe: true });
  for (const [rel, text] of rtl) {
    const full = join(dir, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text + '\n');
    n++;
  }
  // Three copies of one file: a result with its copies grouped.
  for (const d of ['a', 'b']) {
    const full = join(dir, 'copies', d, 'changelog');
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, 'Changelog of the lighthouse keeper.\n');
    const t = new Date(Date.now() - 400 * 86_400_000);
    utimesSync(full, t, t);
    n++;
  }
  return n;
}

beforeAll(async () => {
  server = await startServer();
  root = join(server.dir, 'Files');
  fileCount = writeCorpus(root);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(server.url + path, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });

describe('the pseudo-locale', () => {
  let ctx: BrowserContext;
  let page: Page;
  const found: string[] = [];
  const pageErrors: string[] = [];
  const collect = async (screen: string) => {
    await page.mouse.move(1270, 790);
    for (const l of await literals(page)) found.push(`${screen}: ${l}`);
  };

  beforeAll(async () => {
    ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, locale: 'en-XA' });
    page = await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  afterAll(() => ctx?.close());

  it('has no text outside the catalogue on any screen', async () => {
    const box = page.locator('#search-input');
    // No folders yet.
    await page.goto('/');
    await page.getByTestId('empty-no-folders').waitFor({ timeout: T });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-XA');
    await collect('no folders');
    // The check sees a literal (and a title) put where no message is.
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'planted';
      p.title = 'A title';
      p.append('Plain English');
      document.querySelector('main')!.append(p);
    });
    expect(await literals(page)).toEqual(['text "Plain English" <p#planted>', 'title "A title" <p#planted>']);
    await page.evaluate(() => document.getElementById('planted')!.remove());
    await watchAndIndex(server, root, fileCount);
    await page.reload();

    // Nothing typed; then results with every part of a result shown.
    await box.waitFor({ timeout: T });
    await expect.poll(() => page.getByTestId('empty-no-folders').count(), { timeout: T }).toBe(0);
    await collect('search, idle');
    await box.fill('lighthouse');
    await page.getByTestId('copies-toggle').first().click({ timeout: T });
    await collect('search, copies');
    await box.fill('roof leak');
    await expect.poll(() => page.getByTestId('result-title').first().textContent(), { timeout: T }).toBe('Roof leak');
    await page.getByTestId('why-toggle').first().click();
    await page.getByTestId('why').waitFor({ timeout: T });
    await collect('search, results');
    await shot(page, 'pseudo-search');
    // The table, with a result picked and the selection bar.
    await page.getByTestId('view-table').click();
    await page.getByTestId('pick').first().check();
    await page.getByTestId('selection-bar').waitFor({ timeout: T });
    await collect('search, table and selection');
    await page.getByTestId('view-cards').click();
    for (const chip of ['chip-type', 'chip-date', 'chip-folder', 'chip-sort']) {
      await page.getByTestId(chip).click();
      if (chip === 'chip-date') await page.locator('input[name="date"]').last().check();
      await collect(`search, ${chip}`);
      await page.keyboard.press('Escape');
    }
    await page.locator('.chips > button.btn.ghost').click(); // clear filters
    await page.getByTestId('result').first().getByTestId('preview-button').click();
    await page.getByTestId('preview').locator('mark').first().waitFor({ timeout: T });
    await page.getByTestId('open-with').click();
    await collect('search, preview');
    await page.getByTestId('preview').getByRole('button').first().click();

    // A suggested spelling, nothing found, a query Trove cannot read.
    await box.fill('lighthuose');
    await page.getByTestId('did-you-mean').waitFor({ timeout: T });
    await collect('search, did you mean');
    await box.fill('qqqxxyyzz');
    await page.getByTestId('empty-no-results').waitFor({ timeout: T });
    await collect('search, no results');
    await box.fill('after:2024-13');
    await page.locator('.empty.error').waitFor({ timeout: T });
    await collect('search, bad query');
    await box.fill('');
    await box.blur();
    await box.focus();
    await page.getByTestId('recent-searches').waitFor({ timeout: T });
    await page.locator('[aria-controls="query-help"]').click();
    await collect('search, recent and help');

    await page.goto('/quick');
    await page.locator('#quick-input').fill('budget');
    await page.getByTestId('result').first().waitFor({ timeout: T });
    await collect('quick search');

    await page.goto('/folders');
    const row = page.getByTestId('folder').first();
    await row.getByTestId('folder-counts').waitFor({ timeout: T });
    await page.locator('.options-toggle').click();
    await row.locator('button[aria-controls^="problems-"]').click();
    await row.getByTestId('problems').locator('li').first().waitFor({ timeout: T });
    await page.locator('#folder-path').fill('relative');
    await page.locator('form.row button[type="submit"]').click();
    await page.getByTestId('folder-error').waitFor({ timeout: T });
    await collect('folders');

    await call('POST', '/api/queue/pause');
    appendFileSync(join(root, 'Notes/reading-list.txt'), '- Gödel, Escher, Bach\n');
    await page.goto('/activity');
    await page.getByTestId('queue-item').first().waitFor({ timeout: T });
    await collect('activity, paused');
    await call('POST', '/api/queue/resume');
    await expect.poll(() => page.getByTestId('queue-item').count(), { timeout: T }).toBe(0);
    await collect('activity');

    await page.goto('/settings');
    await page.getByTestId('settings-save').waitFor({ timeout: T });
    for (const type of ['time_window', 'on_ac_power', 'cpu_below', 'battery_above']) {
      await page.locator('#add-rule-type').selectOption(type);
      await page.locator('.rules .add button').click();
    }
    await page.locator('#set-summarizer-provider').selectOption('ollama');
    await page.locator('#set-queue-max_concurrency').fill('0');
    await page.getByTestId('settings-save').click();
    await page.locator('[data-testid="field-error"][data-field="queue.max_concurrency"]').waitFor({ timeout: T });
    await page.getByTestId('filter-editor').locator('.foot button').first().click();
    await collect('settings');
    await page.getByTestId('filter-editor').locator('.foot button.danger').click();
    await page.getByRole('dialog').waitFor({ timeout: T });
    await collect('settings, reset filters?');
    await page.getByRole('dialog').locator('button').first().click();

    expect(found).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe('right-to-left names and text', () => {
  it('shows Arabic and Hebrew names, snippets, paths and previews right to left, and English left to right', async () => {
    const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await ctx.newPage();
    const direction = (sel: string) => page.locator(sel).first().evaluate((e) => [e.getAttribute('dir'), getComputedStyle(e).direction].join(' '));
    try {
      for (const [word, name] of [
        ['الميزانية', 'تقرير الميزانية.txt'],
        ['תקציב', 'דוח תקציב.txt'],
      ]) {
        await page.goto('/?q=' + encodeURIComponent(word));
        const first = page.getByTestId('result').first();
        await expect.poll(() => first.getAttribute('data-path'), { timeout: T }).toMatch(new RegExp(`${name}$`));
        expect(await direction('[data-testid="result"] [data-testid="result-title"]')).toBe('auto rtl');
        expect(await direction('[data-testid="result"] [data-testid="result-snippet"]')).toBe('auto rtl');
        await first.getByTestId('preview-button').click();
        await page.getByTestId('preview-text').locator('pre').waitFor({ timeout: T });
        expect(await direction('[data-testid="preview-text"] pre')).toBe('auto rtl');
        expect(await direction('[data-testid="preview"] h2')).toBe('auto rtl');
      }
      await shot(page, 'rtl-preview');
      await page.goto('/?q=' + encodeURIComponent('roof leak'));
      await expect.poll(() => page.getByTestId('result-title').first().textContent(), { timeout: T }).toBe('Roof leak');
      expect(await direction('[data-testid="result"] [data-testid="result-title"]')).toBe('auto ltr');
    } finally {
      await ctx.close();
    }
  });
});

describe('the language', () => {
  it('follows the browser, and ui.language overrides it in every open window', async () => {
    const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    const page = await ctx.newPage();
    const nav = () => page.locator('nav.sidebar a').first().textContent();
    const setLanguage = (tag: string) => call('PUT', '/api/settings/', { 'ui.language': tag });
    try {
      await page.goto('/');
      await expect.poll(nav, { timeout: T }).toMatch(/Suche/);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      await expect.poll(() => page.getByTestId('status-files').textContent(), { timeout: T }).toMatch(/^\d+ Dateien indexiert$/);
      expect((await setLanguage('ru')).status).toBe(200);
      await expect.poll(nav, { timeout: T }).toMatch(/Поиск/);
      await expect.poll(() => page.getByTestId('status-files').textContent(), { timeout: T }).toMatch(/^\d+ файл(а|ов)? проиндексирован/);
      // A new window speaks it from the start, and "" goes back to the browser's.
      await page.reload();
      await expect.poll(nav, { timeout: T }).toMatch(/Поиск/);
      expect((await setLanguage('')).status).toBe(200);
      await expect.poll(nav, { timeout: T }).toMatch(/Suche/);
      expect((await setLanguage('pt')).status).toBe(400);
      // Chosen in Settings: saved as ui.language, shown at once.
      await page.goto('/settings');
      await page.locator('#set-ui-language').selectOption('es');
      await page.getByTestId('settings-save').click();
      await expect.poll(nav, { timeout: T }).toMatch(/Buscar/);
      expect((await (await call('GET', '/api/settings/')).json()).ui.language).toBe('es');
    } finally {
      await setLanguage('');
      await ctx.close();
    }
  });
});
