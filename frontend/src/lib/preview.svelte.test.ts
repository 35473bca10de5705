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
});
