import { describe, it, expect, vi, afterEach } from 'vitest';
import { mount, unmount, flushSync } from 'svelte';
import PreviewPane from '../components/PreviewPane.svelte';
import type { Preview } from './types';
import { searchResult as hit } from './fixtures';

function previewOf(id: number): Preview {
  return {
    id,
    file_path: `/n/${id}.txt`,
    filename: `${id}.txt`,
    mime: 'text/plain',
    kind: 'documents',
    image: false,
    parts: [{ text: `file ${id}: the ` }, { text: 'ferry', mark: true }, { text: ' waited' }],
    matches: 1,
    truncated: false,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the preview pane', () => {
  it('fetches once per file and query, not again for a refreshed result of the same file', async () => {
    // jsdom lays nothing out; the pane scrolls to its first match.
    Element.prototype.scrollIntoView ??= () => {};
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        const id = Number(/files\/(\d+)\//.exec(url)![1]);
        return new Response(JSON.stringify(previewOf(id)), { status: 200 });
      }),
    );
    let result = $state(hit(1));
    let query = $state('ferry');
    const target = document.createElement('div');
    const c = mount(PreviewPane, {
      target,
      props: {
        get result() {
          return result;
        },
        get query() {
          return query;
        },
        onclose() {},
        oncopy() {},
        onopen() {},
        onreveal() {},
      },
    });
    const text = () => target.querySelector('[data-testid="preview-text"]')?.textContent ?? '';
    await vi.waitFor(() => expect(text()).toContain('file 1: the ferry'));
    expect(asked).toHaveLength(1);

    // Live updates refresh the results: the same file comes as a new object.
    result = hit(1);
    flushSync();
    await Promise.resolve();
    expect(asked).toHaveLength(1);
    expect(text()).toContain('file 1: the ferry');

    result = hit(2);
    flushSync();
    await vi.waitFor(() => expect(text()).toContain('file 2: the ferry'));
    query = 'tide';
    flushSync();
    await vi.waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2]).toBe('/api/files/2/preview?query=tide');
    unmount(c);
  });

  it('marks where each page starts, names the page of the current match and opens there', async () => {
    Element.prototype.scrollIntoView ??= () => {};
    const paged: Preview = {
      ...previewOf(5),
      filename: 'report.pdf',
      mime: 'application/pdf',
      parts: [
        { text: 'minutes of the board ', page: 1 },
        { text: 'ferry', mark: true, page: 2 },
        { text: ' timetable ', page: 2 },
        { text: 'ferry', mark: true, page: 4 },
        { text: ' again', page: 4 },
      ],
      matches: 2,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(paged), { status: 200 })),
    );
    const opened: (number | undefined)[] = [];
    const target = document.createElement('div');
    const c = mount(PreviewPane, {
      target,
      props: { result: hit(5), query: 'ferry', onclose() {}, oncopy() {}, onopen: (r) => opened.push(r.page), onreveal() {} },
    });
    const marks = () => [...target.querySelectorAll('[data-testid="preview-pagemark"]')].map((m) => m.textContent);
    const page = () => target.querySelector('[data-testid="preview-page"]')?.textContent;
    await vi.waitFor(() => expect(marks()).toEqual(['p. 1', 'p. 2', 'p. 4']));
    expect(page()).toBe('p. 2');
    const open = [...target.querySelectorAll('button')].find((b) => b.textContent?.includes('Open'))!;
    open.click();
    c.next(1);
    flushSync();
    expect(page()).toBe('p. 4');
    open.click();
    expect(opened).toEqual([2, 4]);
    unmount(c);
  });
});
