// Result rows people can read and work with, at 1280x800 in Debian's
// Chromium against a real Trove server: hundreds of files share a name
// (copyright) and differ by folder, so the folder must show its end; every
// row shows its size; the table sorts and moves by keyboard; several
// results are picked and their paths copied. Its screenshots are the
// docs' (npm run screenshots): results-cards.png, results-table.png.

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clipboardPage, launch, shot, docsDir } from './browser';
import { startServer, watchAndIndex, type Server } from './server';

const T = 20_000;
const DAY = 86_400_000;

let server: Server;
let browser: Browser;
let page: Page;
let root: string;
const pageErrors: string[] = [];

// Packages with long names, deep down, each with its copyright file: the
// name tells them apart only by the folder's end.
const packages = [
  'libreoffice-common-documentation-examples',
  'python3-distutils-extra-translations',
  'gnome-settings-daemon-common-data',
  'texlive-latex-recommended-documentation',
  'fonts-noto-core-extra-cjk-variants',
  'base-files',
];

function writeCorpus(dir: string): number {
  const now = Date.now();
  packages.forEach((pkg, i) => {
    const full = join(dir, 'usr/share/doc/packages/maintained/upstream', pkg, 'copyright');
    mkdirSync(dirname(full), { recursive: true });
    // Sizes not in the order of names or dates.
    const text = `Format: machine-readable copyright of ${pkg}\n\nLicence: GPL-2+\n` + `The licence of ${pkg} applies. `.repeat(1 + ((i * 7) % 11));
    writeFileSync(full, text);
    const t = new Date(now - (i + 1) * 5 * DAY);
    utimesSync(full, t, t);
  });
  return packages.length;
}

const box = () => page.getByRole('combobox', { name: 'Search your files' });
const rowPaths = () => page.getByTestId('table-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')!));
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

/** What the API answers for the query, in its order (the truth the UI must show). */
async function apiPaths(body: Record<string, unknown>): Promise<string[]> {
  const res = await fetch(server.url + '/api/search/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return ((await res.json()).results as { file: { file_path: string } }[]).map((r) => r.file.file_path);
}

async function search(q: string) {
  await box().fill('');
  await box().fill(q);
  await expect.poll(() => page.getByTestId('result-count').textContent(), { timeout: T }).toBe(`${packages.length} results`);
}

/**
 * A folder as shown: whole, or its start and end with "…" between; never
 * clipped by CSS. In a card the last folder shows whole; a table's column
 * may be narrower than it, and then keeps its end.
 */
async function checkFolder(el: ReturnType<Page['locator']>, wholeLast = true) {
  const full = (await el.getAttribute('data-path'))!;
  const shown = (await el.textContent())!;
  expect(await el.getAttribute('title')).toBe(full);
  if (shown !== full) {
    const [head, tail] = shown.split('…');
    expect(shown.split('…').length, shown).toBe(2);
    expect(full.startsWith(head), `${shown} starts ${full}`).toBe(true);
    expect(full.endsWith(tail), `${shown} ends ${full}`).toBe(true);
    // The end that tells the files apart: the package's own folder, whole.
    if (wholeLast) expect(tail.endsWith('/' + full.slice(full.lastIndexOf('/') + 1)), shown).toBe(true);
  }
  expect(await el.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
  return { full, shown };
}

beforeAll(async () => {
  server = await startServer();
  root = join(server.dir, 'Rows');
  await watchAndIndex(server, root, writeCorpus(root));
  browser = await launch();
  page = await clipboardPage(browser, server.url, pageErrors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('result rows', () => {
  it('cards show the folder whole or shortened in the middle, the size, and give the text the width', async () => {
    await search('licence');
    const cards = page.getByTestId('result');
    let shortened = 0;
    for (let i = 0; i < packages.length; i++) {
      const card = cards.nth(i);
      const { full, shown } = await checkFolder(card.getByTestId('result-folder'));
      expect(dirname((await card.getAttribute('data-path'))!)).toBe(full);
      if (shown !== full) shortened++;
      expect(await card.getByTestId('result-size').textContent()).toMatch(/^\d[\d.,]*\s?(byte|B|kB|KB)/);
    }
    expect(shortened).toBeGreaterThan(0); // the corpus's folders are long: this test saw the ellipsis
    // The buttons hold no width of their own: the text has the card's.
    const first = cards.first();
    const card = (await first.boundingBox())!;
    const body = (await first.locator('.body').boundingBox())!;
    expect(body.width).toBeGreaterThan(card.width - 90);
    // Shown on hover, and on focus by keyboard (Tab from the list).
    const copy = first.getByTestId('copy-path');
    await first.hover();
    await expect.poll(() => copy.evaluate((e) => getComputedStyle(e.parentElement!).opacity), { timeout: T }).toBe('1');
    await shot(page, 'results-card-hover');
    await page.mouse.move(1270, 790);
    await expect.poll(() => copy.evaluate((e) => getComputedStyle(e.parentElement!).opacity), { timeout: T }).toBe('0');
    await box().press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => copy.evaluate((e) => e.parentElement!.contains(document.activeElement)), { timeout: T }).toBe(true);
    await expect.poll(() => copy.evaluate((e) => getComputedStyle(e.parentElement!).opacity), { timeout: T }).toBe('1');
    await page.mouse.move(1270, 790);
    await box().focus();
    await page.evaluate(() => document.getElementById('main')?.scrollTo(0, 0));
    await shot(page, 'results-cards', docsDir);
  });

  it('shows the size of every card in bold when sorted by size', async () => {
    await page.getByTestId('chip-sort').click();
    await page.getByRole('radio', { name: 'Size' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe('size');
    const sizes = page.getByTestId('result-size');
    await expect.poll(() => sizes.first().evaluate((e) => getComputedStyle(e).fontWeight), { timeout: T }).toBe('600');
    await page.getByTestId('chip-sort').click();
    await page.getByRole('radio', { name: 'Relevance' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe(null);
  });

  it('a table sorts every result by its columns, and is remembered', async () => {
    await page.getByTestId('view-table').click();
    await page.getByTestId('results-table').waitFor({ timeout: T });
    expect(await page.evaluate(() => localStorage.getItem('trove.resultsView'))).toBe('table');
    await page.reload();
    await page.getByTestId('results-table').waitFor({ timeout: T });
    await expect.poll(() => page.getByTestId('table-row').count(), { timeout: T }).toBe(packages.length);

    // Size: the search's own sort, biggest first, then the other way.
    await page.getByTestId('column-size').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe('size');
    const bySize = await apiPaths({ query: 'licence', sort: 'size' });
    await expect.poll(rowPaths, { timeout: T }).toEqual(bySize);
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('Size');
    await page.getByTestId('column-size').click();
    await expect.poll(rowPaths, { timeout: T }).toEqual([...bySize].reverse());

    // Folder: the search's sort too, A to Z first, every result.
    await page.getByTestId('column-folder').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe('folder');
    const byFolder = await apiPaths({ query: 'licence', sort: 'folder' });
    expect(byFolder.map(dirname)).toEqual([...byFolder.map(dirname)].sort());
    await expect.poll(rowPaths, { timeout: T }).toEqual(byFolder);
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Folder');
    await page.getByTestId('column-folder').click();
    await expect.poll(rowPaths, { timeout: T }).toEqual(await apiPaths({ query: 'licence', sort: 'folder', order: 'desc' }));

    // Every row shows its folder readable and its size.
    for (const cell of await page.getByTestId('row-folder').all()) await checkFolder(cell, false);
    for (const s of await page.getByTestId('row-size').allTextContents()) expect(s).toMatch(/^\d/);
  });

  it('the table moves by arrow keys in the order shown, and Enter opens', async () => {
    const asked: string[] = [];
    await page.route('**/api/files/*/*', async (route) => {
      asked.push(new URL(route.request().url()).pathname);
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"path":"/x"}' });
    });
    const rows = page.getByTestId('table-row');
    await rows.nth(0).click();
    const current = () => page.locator('tr.current').getAttribute('data-path');
    const paths = await rowPaths();
    expect(await current()).toBe(paths[0]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(current, { timeout: T }).toBe(paths[2]);
    expect(await page.getByTestId('results-table').getAttribute('aria-activedescendant')).toBe(await rows.nth(2).getAttribute('id'));
    await page.keyboard.press('ArrowUp');
    await expect.poll(current, { timeout: T }).toBe(paths[1]);
    await page.keyboard.press('Enter');
    const id = await page.evaluate(async (p) => {
      const r = await fetch('/api/search/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":"licence"}' });
      return ((await r.json()).results as { file: { id: number; file_path: string } }[]).find((x) => x.file.file_path === p)!.file.id;
    }, paths[1]);
    await expect.poll(() => asked, { timeout: T }).toEqual([`/api/files/${id}/open`]);
    await page.unroute('**/api/files/*/*');
  });

  it('picks several rows by Shift and Ctrl click and by checkbox, copies their paths, and opens each', async () => {
    const rows = page.getByTestId('table-row');
    const paths = await rowPaths();
    await rows.nth(0).click();
    await rows.nth(2).click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: T }).toBe('3 selected');
    await rows.nth(4).click({ modifiers: ['Control'] });
    await rows.nth(1).getByTestId('pick').uncheck();
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: T }).toBe('3 selected');
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByTestId('selection-copy').click();
    await expect.poll(clipboard, { timeout: T }).toBe([paths[0], paths[2], paths[4]].join('\n'));
    await shot(page, 'results-table', docsDir);

    // Open and Show in folder call each file's endpoint.
    const asked: string[] = [];
    await page.route('**/api/files/*/*', async (route) => {
      asked.push(new URL(route.request().url()).pathname.replace(/\d+/, 'N'));
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"path":"/x"}' });
    });
    await page.getByTestId('selection-reveal').click();
    await expect.poll(() => asked, { timeout: T }).toEqual(Array(3).fill('/api/files/N/reveal'));
    await page.getByText('Showing 3 files in their folders').waitFor({ timeout: T });
    await page.unroute('**/api/files/*/*');

    // Ctrl+A in the table picks every row; Escape lets go.
    await page.getByTestId('results-table').focus();
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: T }).toBe(`${packages.length} selected`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('selection-bar').count(), { timeout: T }).toBe(0);
  });

  it('picks cards too: Ctrl+click, Shift+click and Ctrl+A, then copies their paths', async () => {
    await page.getByTestId('view-cards').click();
    const cards = page.getByTestId('result');
    await cards.first().waitFor({ timeout: T });
    const paths = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')!));
    await cards.nth(1).click();
    await cards.nth(3).click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: T }).toBe('2 selected');
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByTestId('selection-copy').click();
    await expect.poll(clipboard, { timeout: T }).toBe([paths[1], paths[3]].join('\n'));
    await cards.nth(5).click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: T }).toBe('3 selected');
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: T }).toBe(`${packages.length} selected`);
    // "c" in the list copies every picked path.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.keyboard.press('c');
    await expect.poll(clipboard, { timeout: T }).toBe(paths.join('\n'));
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
