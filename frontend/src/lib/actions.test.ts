import { describe, it, expect, vi, afterEach } from 'vitest';
import { openResult, revealResult } from './actions';
import { toasts } from './toast.svelte';

afterEach(() => {
  vi.unstubAllGlobals();
  toasts.list = [];
});

function answer(status: number, body: unknown) {
  const fn = vi.fn(async (_url: RequestInfo | URL) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fn);
  return fn;
}

describe('opening a result', () => {
  it('shows what the opener said when it failed', async () => {
    const said = "No application is set to open .xyz files (xdg-open exited 3: no method available for opening '/n/plan.xyz')";
    const fetch = answer(400, { error: said });
    expect(await openResult(7, 'plan.xyz')).toBe(false);
    expect(String(fetch.mock.calls[0][0])).toBe('/api/files/7/open');
    expect(toasts.list.at(-1)).toMatchObject({ kind: 'error', text: `Could not open plan.xyz: ${said}` });
  });

  it('says so when revealing failed too, and when it worked', async () => {
    answer(400, { error: 'no file manager answered, and opening the folder failed: xdg-open exited 3' });
    expect(await revealResult(7, 'plan.xyz')).toBe(false);
    expect(toasts.list.at(-1)?.text).toContain('xdg-open exited 3');
    answer(200, { path: '/n/plan.xyz' });
    expect(await openResult(7, 'plan.xyz')).toBe(true);
    expect(toasts.list.at(-1)).toMatchObject({ kind: 'ok', text: 'Opened plan.xyz' });
  });
});
