import { describe, it, expect, vi, afterEach } from 'vitest';
import { mount, unmount, flushSync } from 'svelte';
import SettingsView from '../views/SettingsView.svelte';
import type { OCRStatus, Settings } from './types';
import { defaultSettings } from './fixtures';

const saved: Settings = defaultSettings();

// A server that answers the settings view: its settings, their defaults,
// the status with ocr, and PUT /api/settings/ (recorded).
function server(ocr: OCRStatus) {
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
        if ('extraction.ocr' in patch) current = { ...current, extraction: { ...current.extraction, ocr: patch['extraction.ocr'] } };
        return json(current);
      }
      if (path === '/api/settings/') return json(current);
      if (path === '/api/settings/defaults') return json(saved);
      if (path === '/api/status/') return json({ jobs: 0, version: 'test', uptime_seconds: 1, ocr });
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
