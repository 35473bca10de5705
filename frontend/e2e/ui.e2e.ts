// The web UI in Debian's Chromium against a real Trove server (started by
// global-setup.ts). The tests run in order and share the server: the first
// adds the folder the others search.

import { describe, it, expect, beforeAll, afterAll, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, shot } from './browser';
import { callTool, mcp, startServer, type Server } from './server';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const baseURL = inject('baseURL');
const filesDir = inject('filesDir');
const fileCount = inject('fileCount');
const T = 20_000; // deadline of each wait

let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

async function api<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(baseURL + path, init);
  return (await res.json()) as T;
}

/** Runs fn on a page of a Trove server of its own (started with env), then stops both. */
async function onOwnServer(env: Record<string, string>, fn: (p: Page, server: Server) => Promise<void>) {
  const server = await startServer(env);
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1000, height: 800 } });
  try {
    await fn(await ctx.newPage(), server);
  } finally {
    await ctx.close();
    await server.stop();
  }
}

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // Refused requests (the tests provoke 400s) are logged by Chromium too;
  // anything else, such as a CSP refusal, is a failure.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) pageErrors.push(m.text());
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('Trove in a browser', () => {
  it('adds a folder by typed path, shows the API error for a bad one, and follows it to watching', async () => {
    await page.goto('/');
    // No folders yet: the search screen guides to adding one.
    await page.getByTestId('empty-no-folders').waitFor({ timeout: T });
    await page.getByRole('button', { name: 'Add a folder' }).click();
    await page.waitForURL('**/folders');
    // It lands ready to add one: the path field has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: T }).toBe('folder-path');

    const input = page.getByLabel('Folder path');
    await input.fill('Documents');
    await page.getByRole('button', { name: 'Add folder' }).click();
    const err = page.getByTestId('folder-error');
    await err.waitFor({ timeout: T });
    expect(await err.textContent()).toMatch(/absolute/i);
    expect(await input.getAttribute('aria-invalid')).toBe('true');

    await input.fill(filesDir);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const row = page.locator(`[data-testid="folder"][data-path="${filesDir}"]`);
    await row.waitFor({ timeout: T });
    await expect
      .poll(() => row.getByTestId('folder-status').getAttribute('data-status'), { timeout: T })
      .toMatch(/^(watching|complete)$/);
    const indexable = fileCount - 1; // the named pipe fails
    await expect.poll(() => row.getByTestId('folder-counts').textContent(), { timeout: T }).toContain(`${indexable} of ${fileCount} indexed`);
    await expect.poll(() => row.getByTestId('folder-counts').textContent(), { timeout: T }).toContain('1 failed');
    expect(await err.count()).toBe(0);

    // Its problems, with the reason.
    await row.getByRole('button', { name: /Problems/ }).click();
    const problems = row.getByTestId('problems');
    await expect.poll(() => problems.textContent(), { timeout: T }).toMatch(/old-export\.fifo.*not a regular file/s);

    // The status line counts the indexed files, live.
    await expect.poll(() => page.getByTestId('status-files').textContent(), { timeout: T }).toBe(`${indexable} files indexed`);
    await shot(page, 'folders');
  });

  it('searches as you type and shows the best match first with a highlighted snippet', async () => {
    await page.goto('/');
    const box = page.getByRole('combobox', { name: 'Search your files' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    await box.pressSequentially('roof leak', { delay: 30 });
    const first = page.getByTestId('result').first();
    await expect.poll(() => first.getByTestId('result-title').textContent(), { timeout: T }).toBe('Roof leak');
    const marks = await first.getByTestId('result-snippet').locator('mark').allTextContents();
    expect(marks.map((m) => m.toLowerCase())).toContain('roof');
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('result-count').textContent()).toMatch(/\d+ results?/);
    await shot(page, 'search-roof');

    // "Why this result": the words that matched where, and the score's parts.
    await first.getByTestId('why-toggle').click();
    const why = first.getByTestId('why');
    await expect.poll(() => why.textContent(), { timeout: T }).toMatch(/roof \(.*text.*\).*Score.*=.*text/s);
    await first.getByTestId('why-toggle').click();
    await expect.poll(() => first.getByTestId('why').count(), { timeout: T }).toBe(0);

    // Keyboard selection moves down the list.
    const count = await page.getByTestId('result').count();
    if (count > 1) {
      await box.press('ArrowDown');
      expect(await page.getByTestId('result').nth(1).getAttribute('aria-selected')).toBe('true');
      expect(await box.getAttribute('aria-activedescendant')).toBe('results-1');
    }

    // Enter opens the selected file, Ctrl+Enter shows it in its folder (the
    // desktop calls are intercepted here: no application is started).
    const asked: string[] = [];
    await page.route('**/api/files/*/*', async (route) => {
      asked.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"path":"/x"}' });
    });
    await box.press('ArrowUp');
    const id = await page.evaluate(async () => {
      const r = await fetch('/api/search/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":"roof leak"}' });
      return (await r.json()).results[0].file.id as number;
    });
    await box.press('Enter');
    await box.press('Control+Enter');
    await expect.poll(() => asked, { timeout: T }).toEqual([`POST /api/files/${id}/open`, `POST /api/files/${id}/reveal`]);
    await page.getByText('Opened roof-leak.md').waitFor({ timeout: T });
    await page.unroute('**/api/files/*/*');

    // A type chip narrows the results: kinds of the results with their
    // counts, and any other extension by name.
    await box.fill('report');
    await expect.poll(() => page.getByTestId('result').first().getByTestId('result-title').textContent(), { timeout: T }).toMatch(/Quarterly report/i);
    await page.getByTestId('chip-type').click();
    await expect.poll(() => page.getByTestId('kinds').textContent(), { timeout: T }).toMatch(/Documents\s*\d/);
    await page.getByLabel('Another extension').fill('csv');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByTestId('empty-no-results').or(page.getByTestId('result').first()).waitFor({ timeout: T });
    await expect.poll(() => page.getByTestId('empty-no-results').count(), { timeout: T }).toBe(1);
    await page.getByRole('button', { name: 'Search without filters' }).click();
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(0);

    // Esc clears the box; "/" from elsewhere comes back to it.
    await box.press('Escape');
    expect(await box.inputValue()).toBe('');
    await page.getByRole('link', { name: /Folders/ }).click();
    await page.getByLabel('Folder path').waitFor({ timeout: T });
    await page.locator('body').focus();
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: T }).toBe('search-input');

    // A query with several results.
    await box.fill('budget plan');
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(1);
    await page.mouse.move(0, 0);
    await shot(page, 'search');
  });

  it('pauses and resumes the queue', async () => {
    await page.goto('/activity');
    const state = page.getByTestId('queue-state');
    const toggle = page.getByTestId('queue-toggle');
    await expect.poll(() => toggle.textContent(), { timeout: T }).toMatch(/Pause/);
    await toggle.click();
    await expect.poll(() => state.textContent(), { timeout: T }).toBe('Paused');
    await expect.poll(() => page.getByTestId('status-queue').textContent(), { timeout: T }).toMatch(/Paused/);
    expect((await api('/api/queue/status')).paused_manually).toBe(true);

    // A change while paused waits in the queue, live; it can be dropped.
    appendFileSync(join(filesDir, 'Notes/reading-list.txt'), '- Gödel, Escher, Bach\n');
    const item = page.getByTestId('queue-item');
    await expect.poll(() => item.count(), { timeout: T }).toBe(1);
    expect(await item.textContent()).toMatch(/reading-list\.txt/);
    await expect.poll(() => page.getByTestId('queue-total').textContent(), { timeout: T }).toBe('1');
    await shot(page, 'activity-paused');
    await item.getByRole('button', { name: /Remove .* from the queue/ }).click();
    await expect.poll(() => item.count(), { timeout: T }).toBe(0);
    await expect.poll(async () => (await api('/api/queue/status')).total, { timeout: T }).toBe(0);

    await toggle.click();
    await expect.poll(() => state.textContent(), { timeout: T }).not.toBe('Paused');
    await expect.poll(() => toggle.textContent(), { timeout: T }).toMatch(/Pause/);
    expect((await api('/api/queue/status')).paused_manually).toBe(false);
    await expect.poll(() => page.getByTestId('status-queue').textContent(), { timeout: T }).not.toMatch(/Paused/);
    await shot(page, 'activity');
  });

  it('shows the API validation error next to the setting, and saves a good value', async () => {
    await page.goto('/settings');
    const field = page.getByLabel('Files at once', { exact: true });
    await field.waitFor({ timeout: T });
    await field.fill('0');
    await page.getByTestId('settings-save').click();
    const err = page.locator('[data-testid="field-error"][data-field="queue.max_concurrency"]');
    await err.waitFor({ timeout: T });
    expect(await err.textContent()).toMatch(/out of range.*1 to 64/);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'settings-error');
    expect((await api('/api/settings/')).queue.max_concurrency).toBe(2);

    await field.fill('3');
    expect(await err.count()).toBe(0);
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await api('/api/settings/')).queue.max_concurrency, { timeout: T }).toBe(3);
    await expect.poll(() => page.getByTestId('settings-save').isDisabled(), { timeout: T }).toBe(true);

    // A scheduler rule with a bad percent: the error lands on the rule.
    await page.getByRole('switch', { name: 'Use a schedule' }).check();
    await page.getByLabel('New rule type').selectOption('cpu_below');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const pct = page.locator('#rule-0-percent');
    await pct.fill('150');
    await page.getByTestId('settings-save').click();
    const ruleErr = page.locator('[data-testid="field-error"][data-field="scheduler.rules[0].percent"]');
    await ruleErr.waitFor({ timeout: T });
    expect(await pct.getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await ruleErr.count()).toBe(0);
    expect((await api('/api/settings/')).scheduler.enabled).toBe(false);

    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'settings');
  });

  it('saves scheduler rules and shows the reason when the schedule holds the queue', async () => {
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Use a schedule' }).check();
    await page.getByLabel('New rule type').selectOption('cpu_below');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#rule-0-percent').fill('0'); // CPU use is never below 0%
    await page.getByRole('radio', { name: 'any rule holds' }).check({ force: true });
    await page.getByTestId('settings-save').click();
    await expect
      .poll(async () => (await api('/api/settings/')).scheduler, { timeout: T })
      .toMatchObject({ enabled: true, combine_mode: 'ANY', rules: [{ type: 'cpu_below', percent: 0 }] });

    await page.getByRole('link', { name: /Activity/ }).click();
    await expect.poll(() => page.getByTestId('queue-state').textContent(), { timeout: T }).toBe('Held by the schedule');
    await expect.poll(() => page.getByTestId('queue-detail').textContent(), { timeout: T }).toMatch(/limit 0%/);
    await expect.poll(() => page.getByTestId('status-queue').textContent(), { timeout: T }).toMatch(/Held by schedule/);
    await shot(page, 'activity-scheduled');

    await api('/api/settings/', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ 'scheduler.enabled': false, 'scheduler.rules': [], 'scheduler.combine_mode': 'ALL' }),
    });
    // settings.changed and queue.status reach the page by themselves.
    await expect.poll(() => page.getByTestId('queue-state').textContent(), { timeout: T }).not.toBe('Held by the schedule');
  });

  it('edits filters: adds an exclude pattern, switches mode, keeps the patterns', async () => {
    await page.goto('/settings#filters');
    const editor = page.getByTestId('filter-editor');
    await editor.scrollIntoViewIfNeeded();
    const excluded = editor.getByTestId('list-blacklist_exclude');
    await excluded.waitFor({ timeout: T });

    await excluded.getByLabel('New pattern for Excluded').fill('*.bak');
    await excluded.getByRole('button', { name: 'Add' }).click();
    await excluded.getByRole('button', { name: 'Remove *.bak' }).waitFor({ timeout: T });
    expect((await api('/api/filters/config')).blacklist_exclude).toContain('*.bak');

    // An invalid glob: the API's message shows under the input.
    await excluded.getByLabel('New pattern for Excluded').fill('[oops');
    await excluded.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => excluded.getByRole('alert').textContent(), { timeout: T }).toMatch(/not a valid glob/);

    await editor.getByTestId('mode-whitelist').check({ force: true });
    await editor.getByTestId('list-whitelist_include').waitFor({ timeout: T });
    await expect.poll(() => editor.getByTestId('filter-mode').textContent(), { timeout: T }).toMatch(/Whitelist mode/);
    expect(await excluded.count()).toBe(0);
    const cfg = await api('/api/filters/config');
    expect(cfg.mode).toBe('whitelist');
    expect(cfg.blacklist_exclude).toContain('*.bak');
    expect(cfg.exclude).toEqual(cfg.whitelist_exclude);

    await editor.getByTestId('mode-blacklist').check({ force: true });
    await excluded.getByRole('button', { name: 'Remove *.bak' }).waitFor({ timeout: T });
    expect((await api('/api/filters/config')).mode).toBe('blacklist');

    // Remove it again.
    await excluded.getByRole('button', { name: 'Remove *.bak' }).click();
    await expect.poll(async () => (await api('/api/filters/config')).blacklist_exclude.includes('*.bak'), { timeout: T }).toBe(false);
    await shot(page, 'filters');
  });

  it('quick search: focused on load, results as you type, Esc clears in a browser', async () => {
    await page.goto('/quick');
    const box = page.getByRole('combobox', { name: 'Quick search' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quick-input');
    await box.pressSequentially('sourdough', { delay: 20 });
    await expect.poll(() => page.getByTestId('result').first().getByTestId('result-title').textContent(), { timeout: T }).toMatch(/Sourdough/i);
    await shot(page, 'quick');
    await box.press('Escape');
    expect(await box.inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBe(0);
  });

  it('quick search in a folder (/quick?dir=): only its files, said in words, until Everywhere', async () => {
    const notes = join(filesDir, 'Notes');
    await page.goto('/quick?dir=' + encodeURIComponent(notes));
    const scope = page.getByTestId('quick-scope');
    await expect.poll(() => scope.textContent(), { timeout: T }).toMatch(new RegExp(`^\\s*In ${notes}\\s*Everywhere\\s*$`));
    expect(await scope.locator('[dir="auto"][translate="no"]').textContent()).toBe(notes);
    const paths = () => page.getByTestId('result').evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
    await page.getByRole('combobox', { name: 'Quick search' }).fill('budget');
    await expect.poll(paths, { timeout: T }).toContain(join(notes, 'meeting-notes-2026-03-04.md'));
    expect((await paths()).filter((p) => !p.startsWith(notes + '/'))).toEqual([]);
    await shot(page, 'quick-folder');
    await scope.getByRole('button', { name: 'Everywhere' }).click();
    await expect.poll(() => scope.count(), { timeout: T }).toBe(0);
    await expect.poll(paths, { timeout: T }).toContain(join(filesDir, 'Work/budget-plan-2026.md'));
  });

  it('Settings › Desktop & agents: how each integration is doing, the shortcut, and what agents may do', async () => {
    await page.goto('/settings');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Desktop & agents' }).click();
    // A server outside a desktop session: desktop search is unavailable, and the server says why.
    const search = page.getByTestId('integrations').locator('li[data-name="desktop_search"]');
    await expect.poll(() => search.getAttribute('data-state'), { timeout: T }).toBe('unavailable');
    expect(await search.textContent()).toMatch(/^\s*Desktop search\s*Unavailable\s*Desktop search is off: no desktop session bus/);
    expect(await search.locator('[lang="en"]').count()).toBe(1);

    const shortcut = page.getByLabel('Quick search shortcut');
    expect(await shortcut.inputValue()).toBe('<Ctrl><Alt>space');
    await shortcut.fill('F12'); // no modifier: refused by the server, next to the field
    await page.getByTestId('settings-save').click();
    await page.locator('[data-testid="field-error"][data-field="desktop.shortcut"]').waitFor({ timeout: T });
    expect(await shortcut.getAttribute('aria-invalid')).toBe('true');
    await shortcut.fill('<Super>F12');
    const allowOpen = page.getByRole('switch', { name: 'Agents may open files' });
    expect(await allowOpen.isChecked()).toBe(false);
    const tools = async () => (await mcp(baseURL, 'tools/list')).result.tools.map((t: { name: string }) => t.name);
    expect(await tools()).not.toContain('open');
    await allowOpen.check();
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await api('/api/settings/')).mcp, { timeout: T }).toEqual({ allow_open: true, allow_watch: false });
    expect((await api('/api/settings/')).desktop.shortcut).toBe('<Super>F12');
    // The switch is what agents get: open is offered now.
    expect(await tools()).toContain('open');
    await page.locator('#integrations').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.mouse.move(0, 0);
    await shot(page, 'settings-integrations');

    await api('/api/settings/', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ 'desktop.shortcut': '<Ctrl><Alt>space', 'mcp.allow_open': false }),
    });
    await expect.poll(() => allowOpen.isChecked(), { timeout: T }).toBe(false);
  });

  it("Activity shows AI agents' calls as they come: what was asked, the files given, a refusal", async () => {
    await page.goto('/activity');
    await page.getByTestId('queue-state').waitFor({ timeout: T });
    // Activity lists what happens while it is open: wait for the live stream.
    await page.locator('.conn.open').waitFor({ timeout: T });
    const found = await callTool(baseURL, 'search', { query: 'budget', limit: 5 });
    const files: string[] = JSON.parse(found.result.content[0].text).results.map((r: { path: string }) => r.path);
    expect(files.length).toBeGreaterThan(1);
    expect((await callTool(baseURL, 'open', { id: 1 })).error.message).toMatch(/unknown tool/);

    const calls = page.locator('.log li.mcp-call');
    await expect.poll(() => calls.count(), { timeout: T }).toBe(2);
    const [refused, search] = [calls.nth(0), calls.nth(1)];
    expect(await search.locator('.kind').textContent()).toBe('Agent');
    expect(await search.getByTestId('agent-call').textContent()).toBe('search {"query":"budget","limit":5}');
    expect(await search.getByTestId('agent-files').locator('[dir="auto"]').allTextContents()).toEqual(files.slice(0, 3).map((f) => f.split('/').pop()));
    expect(await search.getByTestId('agent-detail').textContent()).toMatch(new RegExp(`^${files.length} files, [\\d.]+ (byte|kB) sent$`));
    expect(await refused.getByTestId('agent-call').textContent()).toBe('open {"id":1}');
    expect(await refused.getByTestId('agent-detail').textContent()).toBe('Failed: unknown tool "open"');
    expect(await refused.getByTestId('agent-detail').locator('[lang="en"]').textContent()).toBe('unknown tool "open"');
    await page.mouse.move(0, 0);
    await shot(page, 'activity-agent');
  });

  it('removes a folder after confirmation', async () => {
    await page.goto('/folders');
    const row = page.locator(`[data-testid="folder"][data-path="${filesDir}"]`);
    await row.getByRole('button', { name: `Remove ${filesDir}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: T });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: `Remove ${filesDir}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove folder' }).click();
    await expect.poll(() => row.count(), { timeout: T }).toBe(0);
    expect((await api('/api/watched-directories')).data.total_directories).toBe(0);
    await expect.poll(() => page.getByTestId('status-files').textContent(), { timeout: T }).toBe('0 files indexed');
  });

  it('raised no uncaught errors or console errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe('OCR in the settings view', () => {
  // Servers of their own: turning OCR on reads the shared folder's images again.
  it('turns OCR on and sees it saved, with the languages tesseract reads', async () => {
    await onOwnServer({}, async (p, server) => {
      await p.goto('/settings#extraction');
      const ocr = p.getByRole('switch', { name: 'Read text in images and scanned PDFs (OCR)' });
      await ocr.waitFor({ timeout: T });
      expect(await ocr.isChecked()).toBe(false);
      await expect.poll(() => p.getByTestId('ocr-note').textContent(), { timeout: T }).toMatch(/tesseract reads .*English/);
      await ocr.check();
      await p.getByTestId('settings-save').click();
      const saved = async () => (await (await fetch(server.url + '/api/settings/')).json()).extraction.ocr;
      await expect.poll(saved, { timeout: T }).toBe(true);
      await expect.poll(() => p.getByTestId('settings-save').isDisabled(), { timeout: T }).toBe(true);
      await p.reload();
      await ocr.waitFor({ timeout: T });
      await expect.poll(() => ocr.isChecked(), { timeout: T }).toBe(true);
    });
  });

  it('says to install tesseract, and keeps OCR off, where it is missing', async () => {
    await onOwnServer({ PATH: '/nonexistent' }, async (p) => {
      await p.goto('/settings#extraction');
      await expect
        .poll(() => p.getByTestId('ocr-note').textContent(), { timeout: T })
        .toMatch(/tesseract is not installed: install tesseract-ocr to use OCR/);
      expect(await p.getByRole('switch', { name: 'Read text in images and scanned PDFs (OCR)' }).isDisabled()).toBe(true);
    });
  });
});

describe('a Trove started with TROVE_TOKEN', () => {
  it('asks for the token once, offers it again after a cancel, keeps it, and works with it', async () => {
    const server = await startServer({ TROVE_TOKEN: 'e2e-secret' });
    const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1000, height: 700 } });
    try {
      const p = await ctx.newPage();
      await p.goto('/folders');
      const dialog = p.getByRole('dialog', { name: /access token/ });
      await dialog.waitFor({ timeout: T });
      // Cancelled, it is not asked again by itself: the status line offers it.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      const offer = p.getByRole('button', { name: 'Enter access token' });
      await offer.waitFor({ timeout: T });
      expect(await dialog.isVisible()).toBe(false);
      await offer.click();
      await dialog.waitFor({ timeout: T });
      await dialog.getByLabel('Access token').fill('e2e-secret');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await p.getByText('No folders yet').waitFor({ timeout: T });
      await expect.poll(() => p.getByTestId('status-files').textContent(), { timeout: T }).toBe('0 files indexed');
      await expect.poll(() => p.locator('.conn').textContent(), { timeout: T }).toMatch(/Live/);
      expect(await p.evaluate(() => localStorage.getItem('trove.token'))).toBe('e2e-secret');
      // A reload uses the kept token: no question.
      await p.reload();
      await p.getByText('No folders yet').waitFor({ timeout: T });
      expect(await dialog.isVisible()).toBe(false);
    } finally {
      await ctx.close();
      await server.stop();
    }
  });
});
