// Saved searches in Debian's Chromium against a real Trove server: save
// the search in the box under a name, see it listed, run it from the list,
// hear of a new file that matches it, and delete it.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clipboardPage, launch } from './browser';
import { literals } from './literals';
import { startServer, watchAndIndex, type Server } from './server';

const T = 20_000;

let server: Server;
let browser: Browser;
let page: Page;
let root: string;
const pageErrors: string[] = [];

const box = () => page.getByRole('combobox', { name: 'Search your files' });
const count = () => page.getByTestId('result-count').textContent();
const menu = () => page.getByTestId('chip-saved');

/** The saved searches as the API lists them. */
async function apiSaved(): Promise<{ name: string; query: string; notify: boolean }[]> {
  const res = await fetch(server.url + '/api/saved-searches');
  return (await res.json()).saved_searches;
}

async function search(q: string, results: string) {
  await box().fill(q);
  await expect.poll(count, { timeout: T }).toBe(results);
}

beforeAll(async () => {
  server = await startServer();
  root = join(server.dir, 'Bills');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'march.txt'), 'The invoice for March, paid.');
  writeFileSync(join(root, 'april.txt'), 'The invoice for April, due.');
  writeFileSync(join(root, 'garden.txt'), 'Tomatoes along the fence.');
  await watchAndIndex(server, root, 3);
  browser = await launch();
  page = await clipboardPage(browser, server.url, pageErrors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('saved searches', () => {
  it('save the search under a name, list it, run it, tell of new matches, and delete it', async () => {
    await search('invoice', '2 results');

    // Save: the dialog asks for a name, the query's by default.
    await menu().click();
    await page.getByTestId('save-search').click();
    const dialog = page.getByRole('dialog', { name: 'Save search' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const name = dialog.getByLabel('Name');
    expect(await name.inputValue()).toBe('invoice');
    await name.fill('Invoices');
    await dialog.getByLabel('Tell me when new files match it').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await apiSaved()).toMatchObject([{ name: 'Invoices', query: 'invoice', notify: true }]);

    // A second one of the same name, in other case, is refused in words.
    await menu().click();
    await page.getByTestId('save-search').click();
    await name.fill('INVOICES');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: T }).toContain('named "INVOICES" already');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Listed, and run from the list after another search.
    await search('tomatoes', '1 result');
    await menu().click();
    const item = page.getByTestId('saved-item').filter({ hasText: 'Invoices' });
    await expect.poll(() => item.count()).toBe(1);
    await item.getByTitle('Run “Invoices”').click();
    await expect.poll(count, { timeout: T }).toBe('2 results');
    expect(await box().inputValue()).toBe('invoice');

    // A new file that matches: a notice that shows the search again.
    await search('tomatoes', '1 result');
    writeFileSync(join(root, 'may.txt'), 'The invoice for May.');
    const notice = page.getByRole('status').getByText('1 new file matches “Invoices”');
    await expect.poll(() => notice.count(), { timeout: T }).toBe(1);
    await page.getByRole('status').getByRole('button', { name: 'Show' }).click();
    await expect.poll(count, { timeout: T }).toBe('3 results');

    // Delete, after a confirmation.
    await menu().click();
    await page.getByRole('button', { name: 'Delete “Invoices”' }).click();
    await page.getByRole('dialog', { name: 'Delete saved search?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await apiSaved()).length, { timeout: T }).toBe(0);
    await menu().click();
    await expect.poll(() => page.getByTestId('saved-list').textContent()).toContain('No saved searches yet');
    expect(pageErrors).toEqual([]);
  });
});

describe('saved searches in the pseudo-locale', () => {
  it('have no text outside the catalogue: the list, a problem, the dialog and its error', async () => {
    const post = (body: unknown) =>
      fetch(server.url + '/api/saved-searches', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ name: 'Bills', query: 'invoice', notify: true })).status).toBe(201);
    // A saved search whose folder is not watched lists with its problem.
    expect((await post({ name: 'Elsewhere', query: 'invoice', directory: '/nowhere' })).status).toBe(201);
    const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, locale: 'en-XA' });
    try {
      const pseudo = await ctx.newPage();
      await pseudo.goto('/');
      await pseudo.locator('#search-input').fill('invoice');
      await pseudo.getByTestId('chip-saved').click();
      await expect.poll(() => pseudo.getByTestId('saved-item').count(), { timeout: T }).toBe(2);
      expect(await literals(pseudo)).toEqual([]);
      await pseudo.getByTestId('save-search').click();
      const dialog = pseudo.getByTestId('saved-dialog');
      await dialog.locator('#saved-name').fill('bills');
      await dialog.locator('button[type="submit"]').click();
      await dialog.getByRole('alert').waitFor({ timeout: T });
      expect(await literals(pseudo)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
