import { describe, it, expect, vi, afterEach } from 'vitest';
import { mount, unmount, flushSync } from 'svelte';
import SettingsView from '../views/SettingsView.svelte';
import type { Integration, OCRStatus, Settings } from './types';
import { setPath } from './settingsForm';
import { defaultSettings } from './fixtures';

const saved: Settings = defaultSettings();

// A server that answers the settings view: its settings, their defaults,
// the status with ocr and the desktop integrations, and PUT /api/settings/
// (recorded).
function server(ocr: OCRStatus, desktop: Integration[] = []) {
  const puts: unknown[] = [];
  let current = structuredClone(saved);
  const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://127.0.0.1').pathname;
      if (path === '/api/settings/' && init?.method === 'PUT') {
        const patch = JSON.parse(String(init.body));
        puts.push(patch);
        current = structuredClone(current);
        for (const [k, v] of Object.entries(patch)) setPath(current, k, v);
        return json(current);
      }
      if (path === '/api/settings/') return json(current);
      if (path === '/api/settings/defaults') return json(saved);
      if (path === '/api/status/') return json({ jobs: 0, version: 'test', uptime_seconds: 1, ocr, desktop });
      return new Response(JSON.stringify({ error: 'not here' }), { status: 404 });
    }),
  );
  return puts;
}

function open() {
  const target = document.createElement('div');
  document.body.append(target);
  const view = mount(SettingsView, { target });
  const ocrSwitch = () => target.querySelector<HTMLInputElement>('#set-extraction-ocr');
  const note = () => target.querySelector('[data-testid="ocr-note"]')?.textContent?.trim() ?? '';
  return {
    target,
    ocrSwitch,
    note,
    close() {
      unmount(view);
      target.remove();
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the OCR switch in the settings view', () => {
  it('is off by default, says what it costs, and saves extraction.ocr like the other settings', async () => {
    const puts = server({ available: true, languages: ['deu', 'eng'], message: '' });
    const v = open();
    await vi.waitFor(() => expect(v.note()).toBe('tesseract reads German and English.'));
    const sw = v.ocrSwitch()!;
    expect(sw.checked).toBe(false);
    expect(sw.disabled).toBe(false);
    expect(sw.closest('label')!.textContent).toContain('Read text in images and scanned PDFs (OCR)');
    expect(v.target.textContent).toContain('Makes indexing slower');

    sw.click();
    flushSync();
    v.target.querySelector<HTMLButtonElement>('[data-testid="settings-save"]')!.click();
    await vi.waitFor(() => expect(puts).toEqual([{ 'extraction.ocr': true }]));
    await vi.waitFor(() => expect(v.target.querySelector('.savebar.show')).toBeNull());
    expect(v.ocrSwitch()!.checked).toBe(true);
    v.close();
  });

  it('is disabled, with what to install, when tesseract is missing', async () => {
    const puts = server({ available: false, languages: [], message: 'tesseract is not installed: install tesseract-ocr to use OCR' });
    const v = open();
    await vi.waitFor(() => expect(v.note()).toBe('tesseract is not installed: install tesseract-ocr to use OCR'));
    const sw = v.ocrSwitch()!;
    expect(sw.disabled).toBe(true);
    expect(sw.getAttribute('aria-describedby')).toContain('set-extraction-ocr-note');
    sw.click();
    flushSync();
    expect(sw.checked).toBe(false);
    expect(v.target.querySelector('.savebar.show')).toBeNull();
    expect(puts).toEqual([]);
    v.close();
  });
});

describe('the desktop & agents section of the settings view', () => {
  const ocr: OCRStatus = { available: true, languages: ['eng'], message: '' };

  it("lists each integration's state in words, with the server's message in English", async () => {
    server(ocr, [
      { name: 'desktop_search', state: 'unavailable', message: 'no session bus: desktop search is off' },
      { name: 'shortcut', state: 'ok', message: 'Ctrl+Alt+Space opens quick search' },
    ]);
    const v = open();
    await vi.waitFor(() => expect(v.target.querySelectorAll('[data-testid="integrations"] li')).toHaveLength(2));
    const rows = [...v.target.querySelectorAll('[data-testid="integrations"] li')];
    expect(rows.map((r) => r.textContent!.replace(/\s+/g, ' ').trim())).toEqual([
      'Desktop search Unavailable no session bus: desktop search is off',
      'Shortcut Working Ctrl+Alt+Space opens quick search',
    ]);
    expect(rows[0].querySelector('[lang="en"]')!.textContent).toBe('no session bus: desktop search is off');
    v.close();
  });

  it('saves the shortcut and the agent switches like the other settings', async () => {
    const puts = server(ocr);
    const v = open();
    await vi.waitFor(() => expect(v.target.querySelector('#set-desktop-shortcut')).not.toBeNull());
    expect(v.target.querySelector('[data-testid="integrations"]')).toBeNull();
    const shortcut = v.target.querySelector<HTMLInputElement>('#set-desktop-shortcut')!;
    expect(shortcut.value).toBe('<Ctrl><Alt>space');
    shortcut.value = '<Super>F12';
    shortcut.dispatchEvent(new Event('input', { bubbles: true }));
    const allowOpen = v.target.querySelector<HTMLInputElement>('#set-mcp-allow_open')!;
    expect(allowOpen.checked).toBe(false);
    expect(allowOpen.closest('label')!.textContent).toContain('Agents may open files');
    allowOpen.click();
    flushSync();
    v.target.querySelector<HTMLButtonElement>('[data-testid="settings-save"]')!.click();
    await vi.waitFor(() => expect(puts).toEqual([{ 'desktop.shortcut': '<Super>F12', 'mcp.allow_open': true }]));
    await vi.waitFor(() => expect(v.target.querySelector('.savebar.show')).toBeNull());
    expect(v.target.querySelector<HTMLInputElement>('#set-mcp-allow_open')!.checked).toBe(true);
    expect(v.target.querySelector<HTMLInputElement>('#set-mcp-allow_watch')!.checked).toBe(false);
    v.close();
  });
});
