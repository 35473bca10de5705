// The screenshots in docs/screenshots, made on demand (npm run screenshots;
// results.e2e.ts makes the results' ones):
// a fresh server, a small realistic folder, 1280x800.
//   TROVE_DEMO_DIR  where the demo files go (default: a temporary folder)

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launch, shot, docsDir } from './browser';
import { startServer, type Server } from './server';
import { writeFixtures } from './fixtures';

const enabled = process.env.TROVE_DOCS_SCREENSHOTS === '1';
const T = 20_000;
let browser: Browser;
let server: Server;
let ctx: BrowserContext;
let page: Page;
let demo: string;

async function noToasts(p: Page) {
  for (const b of await p.getByRole('button', { name: 'Dismiss' }).all()) await b.click().catch(() => undefined);
  await expect.poll(() => p.locator('.toast').count(), { timeout: T }).toBe(0);
  await p.mouse.move(1270, 790);
}

describe.skipIf(!enabled)('screenshots for the docs', () => {
  beforeAll(async () => {
    server = await startServer();
    demo = process.env.TROVE_DEMO_DIR ?? join(server.dir, 'Documents');
    rmSync(demo, { recursive: true, force: true });
    mkdirSync(demo, { recursive: true });
    writeFixtures(demo, { pipe: true });
    browser = await launch();
    ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    page = await ctx.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('folders', async () => {
    await page.goto('/folders');
    await page.getByLabel('Folder path').fill(demo);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const row = page.locator(`[data-testid="folder"][data-path="${demo}"]`);
    await expect.poll(() => row.getByTestId('folder-status').getAttribute('data-status'), { timeout: T }).toBe('watching');
    await row.getByRole('button', { name: /Problems/ }).click();
    await expect.poll(() => row.getByTestId('problems').textContent(), { timeout: T }).toMatch(/named pipe/);
    await noToasts(page);
    await shot(page, 'folders', docsDir);
  });

  it('search', async () => {
    await page.getByRole('link', { name: /Search/ }).click();
    await page.getByRole('combobox', { name: 'Search your files' }).pressSequentially('budget plan', { delay: 20 });
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(2);
    await page.mouse.move(1270, 790);
    await shot(page, 'search', docsDir);
    const dark = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const p = await dark.newPage();
    await p.goto('/');
    await p.getByRole('combobox', { name: 'Search your files' }).fill('roof leak');
    await expect.poll(() => p.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(1);
    await p.mouse.move(1270, 790);
    await shot(p, 'search-dark', docsDir);
    await p.goto('/quick');
    await p.getByRole('combobox', { name: 'Quick search' }).pressSequentially('lisbon', { delay: 20 });
    await expect.poll(() => p.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(0);
    await p.mouse.move(1270, 790);
    await shot(p, 'quick', docsDir);
    await dark.close();
  });

  // The search screen in each language the UI speaks, as the browser asks for it.
  it('search in each language', async () => {
    // English is search.png.
    for (const tag of ['de', 'fr', 'es', 'zh-CN', 'ja', 'ru']) {
      const c = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, colorScheme: 'light', locale: tag });
      const p = await c.newPage();
      await p.goto('/?q=budget+plan');
      await expect.poll(() => p.evaluate(() => document.documentElement.lang), { timeout: T }).toBe(tag);
      await expect.poll(() => p.getByTestId('result').count(), { timeout: T }).toBeGreaterThan(2);
      await p.mouse.move(1270, 790);
      await shot(p, `search-${tag}`, docsDir);
      await c.close();
    }
  });

  it('activity', async () => {
    await page.getByRole('link', { name: /Activity/ }).click();
    await page.getByTestId('queue-toggle').click();
    await expect.poll(() => page.getByTestId('queue-state').textContent(), { timeout: T }).toBe('Paused');
    for (const f of ['Notes/roof-leak.md', 'Work/budget-plan-2026.md', 'Travel/lisbon-itinerary.md', 'Garden/irrigation.md']) {
      appendFileSync(join(demo, f), '\nUpdated.\n');
    }
    await expect.poll(() => page.getByTestId('queue-item').count(), { timeout: T }).toBe(4);
    await noToasts(page);
    await shot(page, 'activity', docsDir);
    await page.getByTestId('queue-toggle').click();
    await expect.poll(() => page.getByTestId('queue-state').textContent(), { timeout: T }).not.toBe('Paused');
  });

  it('settings', async () => {
    await page.getByRole('link', { name: /Settings/ }).click();
    await page.getByRole('switch', { name: 'Use a schedule' }).check();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Saturday' }).click();
    await page.getByRole('button', { name: 'Sunday' }).click();
    await page.getByLabel('New rule type').selectOption('on_ac_power');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('radio', { name: 'any rule holds' }).check({ force: true });
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await (await fetch(server.url + '/api/settings/')).json()).scheduler.rules.length, { timeout: T }).toBe(2);
    await expect.poll(() => page.getByTestId('status-queue').textContent(), { timeout: T }).toMatch(/^\s*0 queued\s*$/);
    await noToasts(page);
    const field = page.getByLabel('Files at once', { exact: true });
    await field.fill('0');
    await page.getByTestId('settings-save').click();
    await page.locator('[data-testid="field-error"][data-field="queue.max_concurrency"]').waitFor({ timeout: T });
    await page.locator('#queue').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.mouse.move(1270, 790);
    await shot(page, 'settings', docsDir);
  });
});
