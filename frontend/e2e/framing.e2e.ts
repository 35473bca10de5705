// No other site can show Trove's UI inside a frame of its own page (where
// it could lay buttons over it, or read a search from its address): a page
// served from another loopback port frames Trove, and a page of its own
// site as a control, in real Chromium.

import { describe, it, expect, beforeAll, afterAll, inject } from 'vitest';
import type { Browser, Frame } from 'playwright-core';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launch } from './browser';

const baseURL = inject('baseURL');
const T = 20_000;

let browser: Browser;
let other: HttpServer;
let otherURL: string;

// The other site: a page with two frames, Trove's UI with a search in its
// address, and a page of the other site itself, which must load (else the
// test could not tell a refused frame from a slow one).
function otherSite(trove: string): HttpServer {
  return createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (req.url === '/own') {
      res.end('<!doctype html><title>own</title><p id="own">own page</p>');
      return;
    }
    res.end(`<!doctype html><title>framer</title>
<iframe id="trove" name="trove" src="${trove}/?q=password" width="800" height="600"></iframe>
<iframe id="own" name="own" src="/own"></iframe>`);
  });
}

beforeAll(async () => {
  browser = await launch();
  other = otherSite(baseURL);
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  otherURL = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => other?.close(done));
});

/** The frame of the given name once it has committed a document. */
async function frameNamed(frames: () => Frame[], name: string): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      () => {
        found = frames().find((f) => f.name() === name && f.url() !== '' && f.url() !== 'about:blank');
        return found !== undefined;
      },
      { timeout: T },
    )
    .toBe(true);
  return found!;
}

describe('framing', () => {
  it("another site's page cannot show Trove's UI in a frame", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(otherURL + '/', { waitUntil: 'load', timeout: T });
      const own = await frameNamed(() => page.frames(), 'own');
      await own.locator('#own').waitFor({ timeout: T }); // frames load on this page
      const trove = await frameNamed(() => page.frames(), 'trove');
      await trove.waitForLoadState('load', { timeout: T });
      // Chromium replaces a refused frame's document with its error page:
      // no element of Trove's page, not even the one in its HTML.
      expect(await trove.locator('#app').count()).toBe(0);
      expect(trove.url()).not.toContain('q=password');
      // Opened directly, the same address is Trove's UI: the frame was
      // refused, not broken.
      const direct = await browser.newPage();
      await direct.goto(`${baseURL}/?q=password`);
      await direct.locator('input[type="search"]').first().waitFor({ timeout: T });
      await direct.close();
    } finally {
      await page.close();
    }
  });
});
