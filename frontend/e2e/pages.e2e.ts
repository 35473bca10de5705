// Pages of a PDF, in Debian's Chromium against a real Trove server: a word
// on page 3 of a four-page PDF shows "p. 3" by its result (card and table)
// and in the preview, and opening the result starts the desktop's default
// PDF viewer at page 3 (a viewer script named evince that records its
// arguments, found through xdg-mime as on a desktop). The PDF's card and
// table row show its first page as a small picture, a photo's card the
// photo. Its screenshot of field chips is the docs' (npm run screenshots):
// search-fields.png.

import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { clipboardPage, docsDir, launch, shot } from './browser';
import { startServer, watchAndIndex, type Server } from './server';

const T = 20_000;

let server: Server;
let browser: Browser;
let page: Page;
let root: string;
let desk: string;
const pageErrors: string[] = [];

/** A PDF with one line of Helvetica on each page. */
function pagedPDF(texts: string[]): string {
  let out = '%PDF-1.4\n';
  const obj = (n: number, body: string) => (out += `${n} 0 obj\n${body}\nendobj\n`);
  const kids = texts.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, `<< /Type /Pages /Kids [${kids}] /Count ${texts.length} >>`);
  obj(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  texts.forEach((text, i) => {
    const content = `BT /F1 12 Tf 72 700 Td (${text}) Tj ET`;
    obj(4 + 2 * i, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
    obj(5 + 2 * i, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  });
  return out + 'trailer\n<< /Root 1 0 R >>\n%%EOF\n';
}

/** A w by h PNG of a sunrise: sky fading to an orange horizon. */
function sunrisePNG(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc((3 * w + 1) * h);
  for (let y = 0; y < h; y++) {
    const f = y / h;
    for (let x = 0; x < w; x++) {
      const sun = Math.hypot(x - w / 2, y - h * 0.8) < h / 6;
      const o = y * (3 * w + 1) + 1 + 3 * x;
      rows.set(sun ? [255, 214, 90] : [Math.round(60 + 190 * f), Math.round(90 + 60 * f), Math.round(170 - 120 * f)], o);
    }
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A desktop whose default application for PDFs is a viewer script called
 * evince that writes its arguments to viewer-argv; the environment for
 * the server.
 */
function fakeDesktop(dir: string): Record<string, string> {
  const bin = join(dir, 'bin');
  const apps = join(dir, 'data', 'applications');
  const cfg = join(dir, 'config');
  for (const d of [bin, apps, cfg]) mkdirSync(d, { recursive: true });
  const viewer = join(bin, 'evince');
  writeFileSync(viewer, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/argv.tmp" && mv "${dir}/argv.tmp" "${dir}/viewer-argv"\n`);
  chmodSync(viewer, 0o755);
  writeFileSync(join(apps, 'evince-e2e.desktop'), `[Desktop Entry]\nType=Application\nName=Viewer\nExec=${viewer} %U\nMimeType=application/pdf;\n`);
  writeFileSync(join(cfg, 'mimeapps.list'), '[Default Applications]\napplication/pdf=evince-e2e.desktop\n');
  return {
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: cfg,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_DATA_DIRS: join(dir, 'data'),
    TROVE_OPENER: '',
    XDG_CURRENT_DESKTOP: '',
    DESKTOP_SESSION: '',
  };
}

beforeAll(async () => {
  desk = mkdtempSync(join(tmpdir(), 'trove-e2e-desktop-'));
  server = await startServer(fakeDesktop(desk));
  root = join(server.dir, 'Pages');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'report.pdf'), pagedPDF(['Harbour board minutes', 'Ferry timetable', 'Quokka census at dawn', 'Ledger closing']));
  writeFileSync(join(root, 'notes.txt'), 'A quokka was seen near the notes.\n');
  writeFileSync(join(root, 'quokka-at-dawn.png'), sunrisePNG(480, 320));
  await watchAndIndex(server, root, 3);
  browser = await launch();
  page = await clipboardPage(browser, server.url, pageErrors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (desk) rmSync(desk, { recursive: true, force: true });
});

const card = (name: string) => page.locator(`[data-testid="result"][data-path$="/${name}"]`);

describe('pages', () => {
  it('shows the page of a PDF hit by its snippet, and none for a text file', async () => {
    const box = page.getByRole('combobox', { name: 'Search your files' });
    await box.fill('quokka');
    await expect.poll(() => card('report.pdf').count(), { timeout: T }).toBe(1);
    await expect.poll(() => card('notes.txt').count(), { timeout: T }).toBe(1);
    expect(await card('report.pdf').getByTestId('result-page').textContent()).toBe('p. 3');
    expect(await card('notes.txt').getByTestId('result-page').count()).toBe(0);

    await page.getByTestId('view-table').click();
    const row = page.locator('tr', { hasText: 'report.pdf' });
    await expect.poll(() => row.getByTestId('row-page').textContent(), { timeout: T }).toBe('p. 3');
    await expect.poll(() => row.getByTestId('thumbnail').evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight), { timeout: T }).toBe(48);
    expect(await page.locator('tr', { hasText: 'notes.txt' }).getByTestId('thumbnail').count()).toBe(0);
    await page.getByTestId('view-cards').click();
    await expect.poll(() => card('report.pdf').count(), { timeout: T }).toBe(1);
  });

  it('draws the first page of a PDF as the picture on its card, and none for a text file', async () => {
    const thumb = card('report.pdf').getByTestId('thumbnail');
    await expect.poll(() => thumb.count(), { timeout: T }).toBe(1);
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight), { timeout: T }).toBe(96);
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThan(96); // a portrait page
    expect(await card('notes.txt').getByTestId('thumbnail').count()).toBe(0);
    const photo = card('quokka-at-dawn.png').getByTestId('thumbnail');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: T }).toBe(96);
    expect(await photo.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(64);
  });

  it('shows the page of each match in the preview', async () => {
    await card('report.pdf').hover();
    await card('report.pdf').getByTestId('preview-button').click();
    const pane = page.getByTestId('preview');
    await pane.waitFor({ timeout: T });
    await expect.poll(() => pane.getByTestId('preview-page').textContent(), { timeout: T }).toBe('p. 3');
    expect(await pane.getByTestId('preview-pagemark').allTextContents()).toEqual(['p. 1', 'p. 2', 'p. 3', 'p. 4']);
    expect(await pane.locator('mark').allTextContents()).toEqual(['Quokka']);
    await shot(page, 'pages');
    await page.keyboard.press('Escape');
  });

  it('shows the fields of the query as chips that edit and remove them', async () => {
    const box = page.getByRole('combobox', { name: 'Search your files' });
    await box.fill('quokka ext:pdf');
    const chips = page.getByTestId('field-chip');
    await expect.poll(async () => (await chips.allTextContents()).map((c) => c.trim()), { timeout: T }).toEqual(['ext:pdf']);
    await expect.poll(() => card('notes.txt').count(), { timeout: T }).toBe(0);
    expect(await card('report.pdf').count()).toBe(1);
    expect(await card('quokka-at-dawn.png').count()).toBe(0);
    await box.fill('quokka ext:pdf,png');
    await expect.poll(() => card('quokka-at-dawn.png').count(), { timeout: T }).toBe(1);
    await expect.poll(() => card('quokka-at-dawn.png').getByTestId('thumbnail').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: T }).toBe(96);
    await shot(page, 'search-fields', docsDir);
    await box.fill('quokka ext:pdf');
    await expect.poll(() => card('quokka-at-dawn.png').count(), { timeout: T }).toBe(0);
    await chips.first().getByRole('button', { name: 'ext:pdf', exact: true }).click();
    expect(await box.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0))).toBe('ext:pdf');
    await page.getByTestId('field-remove').click();
    await expect.poll(() => box.inputValue(), { timeout: T }).toBe('quokka');
    await expect.poll(() => card('notes.txt').count(), { timeout: T }).toBe(1);
    expect(await chips.count()).toBe(0);
    await box.fill('*.txt');
    await expect.poll(async () => (await chips.allTextContents()).map((c) => c.trim()), { timeout: T }).toEqual(['*.txt']);
    await expect.poll(() => card('notes.txt').count(), { timeout: T }).toBe(1);
    expect(await card('report.pdf').count()).toBe(0);
  });

  it('opens the PDF at the page of the hit', async () => {
    await page.getByRole('combobox', { name: 'Search your files' }).fill('quokka');
    await expect.poll(() => card('report.pdf').count(), { timeout: T }).toBe(1);
    await card('report.pdf').dblclick();
    const argv = join(desk, 'viewer-argv');
    await vi.waitFor(() => expect(existsSync(argv)).toBe(true), { timeout: T, interval: 100 });
    expect(readFileSync(argv, 'utf8').trim().split('\n')).toEqual(['--page-index=3', join(root, 'report.pdf')]);
    expect(pageErrors).toEqual([]);
  });
});
