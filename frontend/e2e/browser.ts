// Debian's Chromium driven by playwright-core (no browser is downloaded).

import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const screenshotDir = resolve(here, '..', '..', 'build', 'screenshots');
// The docs' screenshots are written to docs/screenshots only when asked
// (npm run screenshots); otherwise beside the others, so that a test run
// leaves the tree as it was.
export const docsDir =
  process.env.TROVE_DOCS_SCREENSHOTS === '1' ? resolve(here, '..', '..', 'docs', 'screenshots') : screenshotDir;

/** Saves a screenshot under build/screenshots (or another folder). */
export async function shot(page: Page, name: string, dir = screenshotDir): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/**
 * A page of the UI at 1280x800 in the light theme that may use the
 * clipboard; its errors (uncaught, or logged as errors) go to errors.
 */
export async function clipboardPage(browser: Browser, baseURL: string, errors: string[]): Promise<Page> {
  const ctx = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  await page.goto('/');
  return page;
}
