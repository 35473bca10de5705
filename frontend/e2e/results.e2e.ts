// Results people can work with, in Debian's Chromium against a real Trove
// server of its own: the true count and paging past 50, each sort, the
// preview with its marks, copy path, grouped copies, did-you-mean, kinds
// and a date range, the search in the address bar, and WCAG AA contrast in
// both themes. Its screenshots are the docs' (npm run screenshots).

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clipboardPage, launch, shot, docsDir } from './browser';
import { startServer, watchAndIndex, type Server } from './server';
import { contrastFailures } from './contrast';

const T = 20_000;
const DAY = 86_400_000;
const LOGS = 70; // more than one page of 50

let server: Server;
let browser: Browser;
let page: Page;
let root: string;
const pageErrors: string[] = [];

interface Fixture {
  path: string;
  size: number;
  mtime: number;
}
const logs: Fixture[] = [];

// harbour-NN.txt: NN*3 days old; sizes not in the order of names or dates.
function writeCorpus(dir: string): number {
  const now = Date.now();
  const put = (rel: string, text: string | Buffer, daysAgo: number) => {
    const full = join(dir, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    const t = new Date(now - daysAgo * DAY);
    utimesSync(full, t, t);
    return full;
  };
  for (let i = 0; i < LOGS; i++) {
    const name = `harbour-${String(i).padStart(2, '0')}.txt`;
    const text = `Harbour log ${i}\n\n` + 'The ferry waited at the pier while the tide turned. '.repeat(1 + ((i * 37) % 23));
    const full = put(`logs/${name}`, text, i * 3);
    logs.push({ path: full, size: Buffer.byteLength(text), mtime: now - i * 3 * DAY });
  }
  const same = 'Changelog of the lighthouse keeper.\n\nThe lamp was replaced and the licence renewed for ten years.\n';
  for (const d of ['debian-a', 'debian-b', 'debian-c']) put(`${d}/changelog`, same, 400);
  put('notes/sourdough.md', '# Sourdough\n\nFeed the starter the night before; bake at 250 degrees.\n', 10);
  // One word, Nordlicht, in three languages' texts.
  put('languages/nordlicht-de.txt', 'Das Nordlicht war gestern Abend über dem ganzen Tal zu sehen, und die Kinder blieben lange wach, um es zu beobachten.\n', 5);
  put('languages/nordlicht-fr.txt', "Le Nordlicht était visible hier soir au-dessus de toute la vallée, et les enfants sont restés éveillés pour le regarder.\n", 5);
  put('languages/nordlicht-en.txt', 'The Nordlicht was seen across the whole valley last night, and the children stayed up late to watch it.\n', 5);
  // A 1x1 PNG named for the harbour: an image among the documents.
  put(
    'photos/harbour-photo.png',
    Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c63f80f00000101000518d84e0000000049454e44ae426082', 'hex'),
    1,
  );
  return LOGS + 3 + 1 + 3 + 1;
}

const box = () => page.getByRole('combobox', { name: 'Search your files' });
const shownPaths = () => page.getByTestId('result').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')!));
const total = async () => Number(await page.getByTestId('result-count').getAttribute('data-total'));

async function search(q: string) {
  await box().fill('');
  await box().fill(q);
  await expect.poll(() => page.getByTestId('result-count').count(), { timeout: T }).toBe(1);
  await expect.poll(() => new URL(page.url()).searchParams.get('q'), { timeout: T }).toBe(q);
}

async function chooseSort(label: string) {
  await page.getByTestId('chip-sort').click();
  await page.getByRole('radio', { name: label }).click();
}

// Shows all n results: "Show more" (or the end of the list in view) loads
// the next page.
async function allResults(n: number) {
  await expect
    .poll(
      async () => {
        const c = await page.getByTestId('result').count();
        if (c < n) await page.getByTestId('load-more').click({ timeout: 1000 }).catch(() => undefined);
        return c;
      },
      { timeout: T },
    )
    .toBe(n);
  return shownPaths();
}

beforeAll(async () => {
  server = await startServer();
  root = join(server.dir, 'Results');
  // Every file indexed (expect.poll lives in tests only).
  await watchAndIndex(server, root, writeCorpus(root));
  browser = await launch();
  page = await clipboardPage(browser, server.url, pageErrors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('results', () => {
  it('shows the true count and pages past 50, by button and by arrow keys', async () => {
    await search('harbour');
    expect(await total()).toBe(LOGS + 1); // the logs and the photo by its name
    await expect.poll(() => page.getByTestId('result-count').textContent()).toBe(`${LOGS + 1} results`);
    expect(await page.getByTestId('result').count()).toBe(50);
    // Arrow keys past the end of the first page load the next.
    await box().focus();
    for (let i = 0; i < 49; i++) await box().press('ArrowDown');
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBe(LOGS + 1);
    // The selected result is visible, not under the sticky search bar.
    const sel = page.locator('[data-testid="result"][aria-selected="true"]');
    const top = await page.getByTestId('search-bar').boundingBox();
    const at = await sel.boundingBox();
    expect(at!.y).toBeGreaterThanOrEqual(top!.y + top!.height - 1);
    const paths = await shownPaths();
    expect(new Set(paths).size).toBe(LOGS + 1);
    expect(paths).toContain(logs[LOGS - 1].path);
    await page.getByTestId('result').first().scrollIntoViewIfNeeded();
  });

  it('sorts by date, name and size, each way, and by relevance', async () => {
    await search('ferry');
    expect(await total()).toBe(LOGS);
    const byDate = [...logs].sort((a, b) => b.mtime - a.mtime).map((l) => l.path);
    const byName = [...logs].sort((a, b) => a.path.localeCompare(b.path)).map((l) => l.path);
    const bySize = [...logs].sort((a, b) => b.size - a.size || a.path.localeCompare(b.path)).map((l) => l.path);

    await chooseSort('Date modified');
    await expect.poll(async () => (await shownPaths())[0], { timeout: T }).toBe(byDate[0]);
    expect(await allResults(LOGS)).toEqual(byDate);

    await chooseSort('Name');
    await expect.poll(async () => (await shownPaths())[0], { timeout: T }).toBe(byName[0]);
    expect(await allResults(LOGS)).toEqual(byName);
    await page.getByTestId('chip-sort').click();
    await page.getByRole('button', { name: 'Descending' }).click();
    await expect.poll(async () => (await shownPaths())[0], { timeout: T }).toBe(byName[byName.length - 1]);

    await chooseSort('Size');
    await expect.poll(async () => (await shownPaths())[0], { timeout: T }).toBe(bySize[0]);
    const sizes = await allResults(LOGS);
    const size = (p: string) => logs.find((l) => l.path === p)!.size;
    for (let i = 1; i < sizes.length; i++) expect(size(sizes[i])).toBeLessThanOrEqual(size(sizes[i - 1]));
    await shot(page, 'results-sorted', docsDir);

    await chooseSort('Relevance');
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe(null);
    const res = await (
      await fetch(server.url + '/api/search/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'ferry', limit: 5 }),
      })
    ).json();
    await expect
      .poll(async () => (await shownPaths()).slice(0, 5), { timeout: T })
      .toEqual(res.results.map((r: any) => r.file.file_path));
  });

  it('previews a result with every match marked and steps between them', async () => {
    await search('ferry tide');
    const first = page.getByTestId('result').first();
    await first.hover();
    await first.getByTestId('preview-button').click();
    const pane = page.getByTestId('preview');
    await pane.waitFor({ timeout: T });
    const marks = pane.locator('mark');
    await expect.poll(() => marks.count(), { timeout: T }).toBeGreaterThan(1);
    const n = await marks.count();
    expect(await pane.getByTestId('preview-matches').textContent()).toBe(`1 of ${n} matches`);
    for (const m of await marks.allTextContents()) expect(m.toLowerCase()).toMatch(/^(ferry|tide)$/);
    await pane.getByRole('button', { name: /Next match/ }).click();
    await expect.poll(() => pane.getByTestId('preview-matches').textContent(), { timeout: T }).toBe(`2 of ${n} matches`);
    // The second mark is the current one (the only one).
    expect(await marks.evaluateAll((ms) => ms.flatMap((m, i) => (m.classList.contains('current') ? [i] : [])))).toEqual([1]);
    await shot(page, 'preview', docsDir);
    // Space in the list toggles it; Escape closes it.
    await box().press('Escape');
    await expect.poll(() => pane.count(), { timeout: T }).toBe(0);
    await box().press('Tab');
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('preview').count(), { timeout: T }).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('preview').count(), { timeout: T }).toBe(0);
  });

  it('copies the path of a result, by button and by keyboard', async () => {
    await search('harbour');
    const first = page.getByTestId('result').first();
    const path = await first.getAttribute('data-path');
    await first.hover();
    await first.getByTestId('copy-path').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: T }).toBe(path);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await box().focus();
    await box().press('ArrowDown');
    const second = await page.getByTestId('result').nth(1).getAttribute('data-path');
    await box().press('Control+Shift+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: T }).toBe(second);
  });

  it('groups files of the same content, with their copies on demand', async () => {
    await search('lighthouse keeper');
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBe(1);
    expect(await page.getByTestId('result-count').textContent()).toMatch(/3 results \(2 copies grouped\)/);
    const toggle = page.getByTestId('copies-toggle');
    expect(await toggle.textContent()).toBe('+2 copies');
    await toggle.click();
    const copies = await page.getByTestId('copies').locator('li').allTextContents();
    const shown = (await shownPaths())[0];
    const all = [...copies, shown].sort();
    expect(all).toEqual(['debian-a', 'debian-b', 'debian-c'].map((d) => join(root, d, 'changelog')));
    await shot(page, 'duplicates', docsDir);
  });

  it('suggests a correction from the index that finds the file', async () => {
    await search('lighthuose');
    const dym = page.getByTestId('did-you-mean');
    await dym.waitFor({ timeout: T });
    expect(await dym.textContent()).toMatch(/Did you mean lighthouse\?/);
    await dym.getByRole('button', { name: 'lighthouse' }).click();
    await expect.poll(() => box().inputValue(), { timeout: T }).toBe('lighthouse');
    await expect.poll(async () => (await shownPaths())[0] ?? '', { timeout: T }).toMatch(/debian-[abc]\/changelog$/);
    // Nonsense finds nothing and says so.
    await search('qqqxxyyzz');
    await page.getByTestId('empty-no-results').waitFor({ timeout: T });
    expect(await page.getByTestId('did-you-mean').count()).toBe(0);
  });

  it('says no files match when files are found by meaning alone, and lists them as related', async () => {
    // The API's answer first: files found, none holding the word (else
    // this test shows nothing).
    const ask = async (query: string) =>
      (await (
        await fetch(server.url + '/api/search/', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ query }),
        })
      ).json()) as { keyword_matches: number; results: { file: { file_path: string } }[] };
    const byMeaning = await ask('oven');
    expect(byMeaning.keyword_matches).toBe(0);
    expect(byMeaning.results.length).toBeGreaterThan(0);
    await search('oven');
    await page.getByTestId('empty-no-results').waitFor({ timeout: T });
    await page.getByTestId('related-by-meaning').waitFor({ timeout: T });
    await expect.poll(shownPaths, { timeout: T }).toEqual(byMeaning.results.map((r) => r.file.file_path));
    expect(await page.getByTestId('result-count').textContent()).toMatch(/No matches/);
    // A word a file holds: its results, and no "No files match".
    await search('sourdough');
    await expect.poll(async () => (await shownPaths())[0] ?? '', { timeout: T }).toMatch(/sourdough\.md$/);
    expect(await page.getByTestId('empty-no-results').count()).toBe(0);
    expect(await page.getByTestId('related-by-meaning').count()).toBe(0);
  });

  it('previews an image with the picture itself', async () => {
    await search('harbour-photo.png');
    const first = page.getByTestId('result').first();
    expect(await first.getAttribute('data-path')).toMatch(/harbour-photo\.png$/);
    await first.getByTestId('preview-button').click();
    // The UI fetches the image and shows it from a blob: address, which
    // the page's own content policy must allow.
    const img = page.getByTestId('preview').locator('img');
    await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth), { timeout: T }).toBe(1);
    await page.getByRole('button', { name: 'Close preview (Esc)' }).click();
    await expect.poll(() => page.getByTestId('preview').count(), { timeout: T }).toBe(0);
  });

  it('filters by the language of the text, with counts of the results', async () => {
    await search('Nordlicht');
    await page.getByTestId('chip-language').click();
    const langs = page.getByTestId('languages');
    await expect.poll(() => langs.textContent(), { timeout: T }).toMatch(/German\s*1/);
    expect(await langs.textContent()).toMatch(/French\s*1/);
    expect(await langs.textContent()).toMatch(/English\s*1/);
    await langs.getByRole('checkbox', { name: /German/ }).check();
    await expect.poll(() => total(), { timeout: T }).toBe(1);
    expect((await shownPaths())[0]).toMatch(/nordlicht-de\.txt$/);
    expect(new URL(page.url()).searchParams.getAll('lang')).toEqual(['de']);
    // The counts stay every language's, so another can be picked.
    await langs.getByRole('checkbox', { name: /French/ }).check();
    await expect.poll(() => total(), { timeout: T }).toBe(2);
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('chip-language').textContent()).toMatch(/German, French/);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => total(), { timeout: T }).toBe(3);
  });

  it('filters by kind with counts of the results, and by a date range', async () => {
    await search('harbour');
    await page.getByTestId('chip-type').click();
    const kinds = page.getByTestId('kinds');
    await expect.poll(() => kinds.textContent(), { timeout: T }).toMatch(/Documents\s*70/);
    expect(await kinds.textContent()).toMatch(/Images\s*1/);
    await shot(page, 'kinds', docsDir);
    await kinds.getByRole('checkbox', { name: /Images/ }).check();
    await expect.poll(() => total(), { timeout: T }).toBe(1);
    expect((await shownPaths())[0]).toMatch(/harbour-photo\.png$/);
    // The counts stay those of every kind, so another can be picked.
    await kinds.getByRole('checkbox', { name: /Documents/ }).check();
    await expect.poll(() => total(), { timeout: T }).toBe(LOGS + 1);
    await kinds.getByRole('checkbox', { name: /Images/ }).uncheck();
    await expect.poll(() => total(), { timeout: T }).toBe(LOGS);
    await page.keyboard.press('Escape');

    // Logs 10 to 19 days * 3 ago: between 57 and 30 days ago, both ends in.
    const day = (d: number) => {
      const t = new Date(Date.now() - d * DAY);
      return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
    };
    await page.getByTestId('chip-date').click();
    await page.getByRole('radio', { name: /Between two days/ }).click();
    await page.getByLabel('Modified on or after').fill(day(57));
    await page.getByLabel('Modified on or before').fill(day(30));
    const want = logs.filter((l) => {
      const d = (Date.now() - l.mtime) / DAY;
      return d >= 29.5 && d <= 57.5;
    }).length;
    await expect.poll(() => total(), { timeout: T }).toBe(want);
    expect(await page.getByTestId('chip-date').textContent()).toContain(`${day(57)} – ${day(30)}`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => total(), { timeout: T }).toBe(LOGS + 1);
  });

  it('keeps the search in the address bar: reload, Back and Forward', async () => {
    await page.goto('/?q=ferry');
    await expect.poll(() => total(), { timeout: T }).toBe(LOGS);
    await chooseSort('Name');
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe('name');
    await page.reload();
    await expect.poll(() => box().inputValue(), { timeout: T }).toBe('ferry');
    expect(await page.getByTestId('chip-sort').textContent()).toContain('Name');
    await expect.poll(() => total(), { timeout: T }).toBe(LOGS);

    await search('lighthouse');
    await expect.poll(() => page.getByTestId('result').count(), { timeout: T }).toBe(1);
    await page.goBack();
    await expect.poll(() => box().inputValue(), { timeout: T }).toBe('ferry');
    await expect.poll(() => total(), { timeout: T }).toBe(LOGS);
    expect(await page.getByTestId('chip-sort').textContent()).toContain('Name');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), { timeout: T }).toBe(null);
    await expect.poll(() => page.getByTestId('chip-sort').textContent(), { timeout: T }).toContain('Relevance');
    await page.goForward();
    await expect.poll(() => page.getByTestId('chip-sort').textContent(), { timeout: T }).toContain('Name');
    await page.goForward();
    await expect.poll(() => box().inputValue(), { timeout: T }).toBe('lighthouse');

    // Recent searches are offered in the empty box, and can be cleared.
    await box().fill('');
    await box().blur();
    await box().focus();
    const recent = page.getByTestId('recent-searches');
    await recent.waitFor({ timeout: T });
    expect(await recent.textContent()).toContain('ferry'); // shown long enough to count
    await recent.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => recent.count(), { timeout: T }).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('trove.recent'))).toBe(null);
  });

  it('settings: a section link scrolls the content only; a refused value shows above the unsaved bar; no internal names', async () => {
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Filters' }).first().click();
    await expect.poll(() => page.evaluate(() => document.getElementById('main')!.scrollTop), { timeout: T }).toBeGreaterThan(0);
    const moved = await page.evaluate(() => ({
      shell: document.querySelector('.shell')!.scrollTop,
      doc: document.scrollingElement!.scrollTop,
      sidebarTop: document.querySelector('.sidebar')!.getBoundingClientRect().top,
    }));
    expect(moved).toEqual({ shell: 0, doc: 0, sidebarTop: 0 });
    expect(await page.locator('main').textContent()).not.toMatch(/blacklist_exclude|legacy/);

    await page.locator('#set-queue-max_retries').fill('-5');
    await page.getByTestId('settings-save').click();
    const err = page.locator('[data-testid="field-error"][data-field="queue.max_retries"]');
    await err.waitFor({ timeout: T });
    const bar = await page.locator('.savebar').boundingBox();
    const box = await err.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(bar!.y);
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  it('activity: one queue count, and recent files lead to their search', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      fetch(server.url + path, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    // Names come first: new files wait in the index, not in the queue, and
    // the queue takes them a window at a time as the content pass runs.
    // Activity lists what is indexed while it is open.
    await page.goto('/activity');
    // Events sent before the stream opens are not replayed to a new page.
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor({ timeout: T });
    const more = join(server.dir, 'More');
    for (let i = 0; i < 6; i++) {
      mkdirSync(more, { recursive: true });
      writeFileSync(join(more, `note-${i}.txt`), `Mooring note ${i}: the boat stays at berth ${i}.`);
    }
    // Paused, the names are recorded and the files wait to be read.
    expect((await call('POST', '/api/queue/pause')).status).toBe(200);
    expect((await call('POST', '/api/watch/directory', { path: more })).status).toBeLessThan(300);
    await expect.poll(() => page.getByTestId('pending-total').textContent(), { timeout: T }).toBe('6');
    expect((await call('POST', '/api/queue/resume')).status).toBe(200);
    await expect.poll(() => page.getByTestId('pending-total').textContent(), { timeout: T }).toBe('0');
    await expect.poll(() => page.getByTestId('queue-total').textContent(), { timeout: T }).toBe('0');
    const link = page.getByTestId('recent-link').first();
    await link.waitFor({ timeout: T });
    const name = (await link.textContent())!.trim();
    await link.click();
    await expect.poll(() => box().inputValue(), { timeout: T }).toBe(`"${name}"`);
    await expect.poll(async () => (await shownPaths())[0] ?? '', { timeout: T }).toBe(join(more, name));
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has WCAG AA contrast on every screen in the ${scheme} theme`, async () => {
      const c = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, colorScheme: scheme });
      const p = await c.newPage();
      const failures: string[] = [];
      const check = async (where: string) => {
        await p.mouse.move(1270, 790);
        // Colours mid-transition are neither the old nor the new ones.
        await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: T });
        for (const f of await contrastFailures(p)) {
          failures.push(`${where}: "${f.text}" ${f.ratio}:1 < ${f.need}:1 (${f.color} on ${f.background}, ${f.where})`);
        }
      };
      await p.goto('/?q=harbour');
      await p.getByTestId('result').first().waitFor({ timeout: T });
      await check('search');
      await p.getByTestId('result').first().getByTestId('preview-button').click({ force: true });
      await p.getByTestId('preview').locator('mark').first().waitFor({ timeout: T });
      await check('preview');
      await p.goto('/?q=lighthuose');
      await p.getByTestId('did-you-mean').waitFor({ timeout: T });
      await check('did you mean');
      // Each screen with its content in: a check of a screen still loading
      // would pass on what is not there yet.
      const loaded: Record<string, () => Promise<unknown>> = {
        '/folders': () => p.getByTestId('folder-counts').first().waitFor({ timeout: T }),
        '/activity': () => expect.poll(() => p.getByTestId('queue-state').textContent(), { timeout: T }).not.toBe('Connecting…'),
        '/settings': () => p.getByTestId('settings-save').waitFor({ timeout: T }),
      };
      for (const [path, ready] of Object.entries(loaded)) {
        await p.goto(path);
        await ready();
        await check(path);
      }
      // Paused, Activity shows its other button and badge.
      expect((await fetch(server.url + '/api/queue/pause', { method: 'POST' })).status).toBe(200);
      try {
        await p.goto('/activity');
        await expect.poll(() => p.getByTestId('queue-toggle').textContent(), { timeout: T }).toContain('Resume');
        await check('/activity (paused)');
      } finally {
        await fetch(server.url + '/api/queue/resume', { method: 'POST' });
      }
      await c.close();
      expect(failures).toEqual([]);
    });
  }

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
